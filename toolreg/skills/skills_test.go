package skills_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
	"github.com/plainmcp/plainmcp/mcpclient/skill"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/skills"
)

// TestSkillsAcrossServers: each server's skills are named in its own
// namespace, listed without reading a file, and loaded from the server
// that listed them, and only from it.
func TestSkillsAcrossServers(t *testing.T) {
	leakcheck.Check(t)
	m := &memdemo.Servers{}
	r := newInMemory(t, m, "demo", "pages")
	ctx := context.Background()
	for range 2 {
		listed, err := skills.List(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, sk := range listed {
			got = append(got, sk.Name+" "+sk.Server+" "+sk.Def.URI)
		}
		want := []string{
			"mcp__demo__demo-tour demo skill://demo-tour/SKILL.md",
			"mcp__demo__haiku demo skill://writing/haiku/SKILL.md",
			"mcp__pages__demo-tour pages skill://demo-tour/SKILL.md",
			"mcp__pages__haiku pages skill://writing/haiku/SKILL.md",
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("skills (-want +got):\n%s", d)
		}
	}
	for _, srv := range []string{"demo", "pages"} {
		if n := m.Sent(srv, "skills/list"); n != 1 {
			t.Errorf("%s: skills/list sent %d times, want 1 (cached)", srv, n)
		}
		if n := m.Sent(srv, "resources/read"); n != 0 {
			t.Errorf("%s: listing read %d files", srv, n)
		}
	}

	l, err := skills.Load(ctx, r, "mcp__pages__haiku")
	if err != nil {
		t.Fatal(err)
	}
	if l.Skill.Name != "haiku" || !strings.Contains(string(l.Body), "syllables") {
		t.Errorf("loaded %+v", l)
	}
	if _, err := l.ReadFile(ctx, "examples/pipes.md"); err != nil {
		t.Error(err)
	}
	if d, p := m.Sent("demo", "resources/read"), m.Sent("pages", "resources/read"); d != 0 || p != 2 {
		t.Errorf("reads: demo %d, pages %d; want 0 and 2 (SKILL.md, then the example)", d, p)
	}
	if _, err := skills.Load(ctx, r, "mcp__pages__nope"); !errors.Is(err, toolreg.ErrUnknownTool) {
		t.Errorf("unknown skill: %v", err)
	}
}

// TestSkillNamesCollide: two skills of one server with the same name are
// both kept, told apart by their paths.
func TestSkillNamesCollide(t *testing.T) {
	leakcheck.Check(t)
	refunds := func(path string) demoserver.Skill {
		fm := "---\nname: refunds\ndescription: Refunds, " + path + ".\n---\n"
		return demoserver.Skill{Path: path, Files: map[string]string{"SKILL.md": fm},
			Frontmatter: map[string]any{"name": "refunds", "description": "Refunds, " + path + "."}}
	}
	m := &memdemo.Servers{Skills: map[string][]demoserver.Skill{
		"acme":  {refunds("acme/billing/refunds"), refunds("acme/support/refunds")},
		"other": {refunds("refunds")},
	}}
	r := newInMemory(t, m, "acme", "other")
	ctx := context.Background()
	listed, err := skills.List(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sk := range listed {
		names = append(names, sk.Name)
	}
	want := []string{"mcp__acme__acme_billing_refunds", "mcp__acme__acme_support_refunds", "mcp__other__refunds"}
	if d := cmp.Diff(want, names); d != "" {
		t.Fatalf("names (-want +got):\n%s", d)
	}
	l, err := skills.Load(ctx, r, "mcp__acme__acme_support_refunds")
	if err != nil || l.Skill.URI != "skill://acme/support/refunds/SKILL.md" {
		t.Errorf("LoadSkill = %v, %v", l, err)
	}
}

// TestLoadSkillRefusedByRegistry: a skill that fails verification is
// refused with the server named, and none of its other files is read.
func TestLoadSkillRefusedByRegistry(t *testing.T) {
	leakcheck.Check(t)
	demo := demoserver.DemoSkills()
	demo[0].Served = map[string]string{"SKILL.md": strings.Replace(demo[0].Files["SKILL.md"], "echo", "ECHO", 1)}
	m := &memdemo.Servers{Skills: map[string][]demoserver.Skill{"demo": demo}}
	r := newInMemory(t, m, "demo")
	_, err := skills.Load(context.Background(), r, "mcp__demo__demo-tour") // lists first
	var se *skill.Error
	if !errors.Is(err, skill.ErrVerification) || !errors.As(err, &se) || se.Check != "digest" || !strings.Contains(err.Error(), `server "demo"`) {
		t.Errorf("LoadSkill = %v; want a digest refusal naming the server", err)
	}
	if n := m.Sent("demo", "resources/read"); n != 1 {
		t.Errorf("%d reads, want the SKILL.md alone", n)
	}
}
