package main

import (
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
)

func TestSkillsCommand(t *testing.T) {
	leakcheck.Check(t)
	dir := demoDir(t)
	r := runIn(t, dir, "", "skills")
	r.want(t, exitOK)
	for _, want := range []string{"demo: 2 skills", "pages: 2 skills", "mcp__demo__demo-tour", "mcp__pages__haiku", "Write a haiku"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("skills lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runIn(t, dir, "", "--json", "--server", "demo", "skills")
	r.want(t, exitOK)
	var skills []skillJSON
	r.decode(t, &skills)
	if len(skills) != 2 || skills[1].Skill != "haiku" || skills[1].URI != "skill://writing/haiku/SKILL.md" ||
		len(skills[1].Files) != 2 || skills[1].Files[1].Path != "examples/pipes.md" || skills[1].Problem != "" {
		t.Errorf("skills --json = %+v", skills)
	}
}

func TestSkillCommand(t *testing.T) {
	leakcheck.Check(t)
	dir := demoDir(t)
	tour := demoserver.DemoSkills()[0].Files["SKILL.md"]
	r := runIn(t, dir, "", "skill", "mcp__demo__demo-tour")
	r.want(t, exitOK)
	for _, want := range []string{"from server demo", "verified", tour, "references/TOOLS.md  164 bytes"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("skill lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runIn(t, dir, "", "--server", "pages", "skill", "haiku", "examples/pipes.md")
	r.want(t, exitOK)
	if r.stdout != demoserver.DemoSkills()[1].Files["examples/pipes.md"] {
		t.Errorf("skill haiku examples/pipes.md printed %q", r.stdout)
	}
	r = runIn(t, dir, "", "--json", "skill", "mcp__demo__demo-tour")
	r.want(t, exitOK)
	var loaded loadedJSON
	r.decode(t, &loaded)
	if loaded.Content != tour || loaded.Frontmatter["license"] != "MIT" || len(loaded.Files) != 2 {
		t.Errorf("skill --json = %+v", loaded)
	}
	runIn(t, dir, "", "skill", "mcp__demo__demo-tour", "../haiku/SKILL.md").want(t, exitRefused, "unlisted check failed")
	runIn(t, dir, "", "skill", "nope").want(t, exitFailure, `no skill "nope"`, "mcpc skills lists them")
	runIn(t, dir, "", "skill").want(t, exitUsage, "usage: mcpc skill <name> [file]")
}

// TestSkillRefused: a SKILL.md that does not verify is not printed; the
// error names the check.
func TestSkillRefused(t *testing.T) {
	leakcheck.Check(t)
	dir := t.TempDir()
	writeConfig(t, dir, ".mcp.json", map[string]any{"demo": demoEntry(t, "-tamper-skill")})
	r := runIn(t, dir, "", "skill", "demo-tour")
	r.want(t, exitRefused, `server "demo"`, "digest check failed")
	if r.stdout != "" {
		t.Errorf("a refused skill printed %q", r.stdout)
	}
	runIn(t, dir, "", "skill", "haiku").want(t, exitOK)
}
