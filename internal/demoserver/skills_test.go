package demoserver

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/jsonrpc"
)

type wireSkill struct {
	URI         string
	Frontmatter map[string]any
	Resources   []skillFile
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestSkillsListPagesEntries(t *testing.T) {
	c := startInitialized(t, &Options{PageSize: 1}, nil, `{}`)
	var all []wireSkill
	cursor, pages := "", 0
	for {
		var page struct {
			Skills     []wireSkill
			NextCursor string
		}
		if err := c.call("skills/list", map[string]string{"cursor": cursor}, &page); err != nil {
			t.Fatal(err)
		}
		pages++
		all = append(all, page.Skills...)
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	want := []wireSkill{
		{
			URI:         "skill://demo-tour/SKILL.md",
			Frontmatter: map[string]any{"name": "demo-tour", "description": DemoSkills()[0].Frontmatter["description"], "license": "MIT", "metadata": map[string]any{"author": "plainmcp", "version": "1.0"}},
			Resources: []skillFile{
				{"skill://demo-tour/SKILL.md", digest(tourSkill), len(tourSkill)},
				{"skill://demo-tour/references/TOOLS.md", digest(tourTools), len(tourTools)},
			},
		},
		{
			URI:         "skill://writing/haiku/SKILL.md",
			Frontmatter: map[string]any{"name": "haiku", "description": DemoSkills()[1].Frontmatter["description"], "metadata": map[string]any{"author": "plainmcp"}},
			Resources: []skillFile{
				{"skill://writing/haiku/SKILL.md", digest(haikuSkill), len(haikuSkill)},
				{"skill://writing/haiku/examples/pipes.md", digest(haikuExample), len(haikuExample)},
			},
		},
	}
	if d := cmp.Diff(want, all); d != "" || pages != 2 {
		t.Errorf("%d pages; skills (-want +got):\n%s", pages, d)
	}
}

func TestSkillsGet(t *testing.T) {
	c := startInitialized(t, nil, nil, `{}`)
	var res struct{ Skill wireSkill }
	if err := c.call("skills/get", map[string]string{"uri": "skill://writing/haiku/SKILL.md"}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Skill.URI != "skill://writing/haiku/SKILL.md" || len(res.Skill.Resources) != 2 {
		t.Errorf("skills/get = %+v", res.Skill)
	}
	for _, uri := range []string{"skill://haiku/SKILL.md", "skill://writing/haiku/examples/pipes.md", ""} {
		wantCode(t, c.call("skills/get", map[string]string{"uri": uri}, nil), jsonrpc.CodeInvalidParams, "no skill")
	}
}

// TestSkillFilesRead: every listed file reads back as the bytes its digest
// describes; Served replaces what is read, not what is listed.
func TestSkillFilesRead(t *testing.T) {
	skills := DemoSkills()
	skills[0].Served = map[string]string{"references/TOOLS.md": "tampered"}
	c := startInitialized(t, &Options{Skills: skills}, nil, `{}`)
	read := func(uri string) (string, string) {
		t.Helper()
		var res struct {
			Contents []struct{ URI, MimeType, Text string }
		}
		if err := c.call("resources/read", map[string]string{"uri": uri}, &res); err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != uri {
			t.Fatalf("%s: contents %+v", uri, res.Contents)
		}
		return res.Contents[0].Text, res.Contents[0].MimeType
	}
	for uri, want := range map[string]string{
		"skill://demo-tour/SKILL.md":              tourSkill,
		"skill://demo-tour/references/TOOLS.md":   "tampered",
		"skill://writing/haiku/SKILL.md":          haikuSkill,
		"skill://writing/haiku/examples/pipes.md": haikuExample,
	} {
		if got, mime := read(uri); got != want || mime != "text/markdown" {
			t.Errorf("%s: %q (%s), want %q", uri, got, mime, want)
		}
	}
	var list struct{ Skills []wireSkill }
	if err := c.call("skills/list", nil, &list); err != nil {
		t.Fatal(err)
	}
	if got := list.Skills[0].Resources[1].Digest; got != digest(tourTools) {
		t.Errorf("the listing follows Served: %s", got)
	}
	wantCode(t, c.call("resources/read", map[string]string{"uri": "skill://demo-tour/nope.md"}, nil), codeResourceNotFound)
}

func TestNoSkills(t *testing.T) {
	c := startInitialized(t, &Options{Skills: []Skill{}}, nil, `{}`)
	var page json.RawMessage
	if err := c.call("skills/list", nil, &page); err != nil {
		t.Fatal(err)
	}
	if string(page) != `{"skills":[]}` {
		t.Errorf("skills/list = %s", page)
	}
}
