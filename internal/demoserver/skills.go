package demoserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// skillsExtension is the skills extension's identifier (SEP-2640).
const skillsExtension = "io.modelcontextprotocol/skills"

// Skill is a skill the server serves under the skills extension
// (io.modelcontextprotocol/skills): a directory of files, each one a
// resource at skill://<Path>/<file>, read with resources/read.
type Skill struct {
	// Path locates the skill: its name, after an optional prefix of
	// segments ("demo-tour", "writing/haiku").
	Path string
	// Frontmatter is the SKILL.md's frontmatter as skills/list and
	// skills/get give it, a JSON object. For a skill that verifies, it is
	// what the SKILL.md's own frontmatter holds.
	Frontmatter map[string]any
	// Files maps each file's path within the skill to its content.
	// "SKILL.md" is required. The listing gives the digest and size of
	// these bytes.
	Files map[string]string
	// Served, if set, maps a file's path to the content resources/read
	// answers with instead of the one in Files: a server whose files do not
	// match its listing, for testing how a client verifies them.
	Served map[string]string
}

// DemoSkills returns the skills the server serves unless Options.Skills
// says otherwise, as new values a test may change:
//
//   - skill://demo-tour/SKILL.md, a tour of the demo tools, with
//     references/TOOLS.md;
//   - skill://writing/haiku/SKILL.md, named haiku, with examples/pipes.md.
func DemoSkills() []Skill {
	return []Skill{
		{
			Path: "demo-tour",
			Frontmatter: map[string]any{
				"name":        "demo-tour",
				"description": "Show someone around the plainmcp demo server: which tool to call for what, and in which order.",
				"license":     "MIT",
				"metadata":    map[string]any{"author": "plainmcp", "version": "1.0"},
			},
			Files: map[string]string{"SKILL.md": tourSkill, "references/TOOLS.md": tourTools},
		},
		{
			Path: "writing/haiku",
			Frontmatter: map[string]any{
				"name":        "haiku",
				"description": "Write a haiku about what the user names, then count its syllables.",
				"metadata":    map[string]any{"author": "plainmcp"},
			},
			Files: map[string]string{"SKILL.md": haikuSkill, "examples/pipes.md": haikuExample},
		},
	}
}

const tourSkill = `---
name: demo-tour
description: >-
  Show someone around the plainmcp demo server: which tool to call
  for what, and in which order.
license: MIT
metadata:
  author: plainmcp
  version: "1.0"
---
# A tour of the demo server

1. Call echo with some text: the text comes back.
2. Call add with two numbers: the sum comes as text and as structured content.
3. Call slow with progress turned on, and watch the notifications arrive.

Every tool, and what it needs, is in references/TOOLS.md.
`

const tourTools = `# The demo tools

- echo {text}: the text back.
- add {a, b}: the sum.
- slow {steps, delayMs}: progress, step by step.
- mixed {}: one content item of every kind.
`

const haikuSkill = `---
name: haiku
description: Write a haiku about what the user names, then count its syllables.
metadata: {author: plainmcp}
---
# Haiku

Write three lines of five, seven and five syllables, then count them
aloud. examples/pipes.md shows one that keeps the form.
`

const haikuExample = `Bytes flow through the pipe,
one frame after another—
the reader waits, calm.
`

// skillSet is the server's skills, ready to serve: the listing's entries,
// encoded once, and the content of every file by URI.
type skillSet struct {
	entries []json.RawMessage          // in Options order
	byURI   map[string]json.RawMessage // entry by SKILL.md URI
	files   map[string]string          // content served, by file URI
}

type skillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int    `json:"size"`
}

type skillEntry struct {
	URI         string         `json:"uri"`
	Frontmatter map[string]any `json:"frontmatter"`
	Resources   []skillFile    `json:"resources"`
}

func newSkillSet(skills []Skill) *skillSet {
	set := &skillSet{byURI: map[string]json.RawMessage{}, files: map[string]string{}}
	for _, sk := range skills {
		root := "skill://" + sk.Path + "/"
		e := skillEntry{URI: root + "SKILL.md", Frontmatter: sk.Frontmatter}
		// SKILL.md first, then the others by path.
		paths := slices.SortedFunc(maps.Keys(sk.Files), func(a, b string) int {
			switch {
			case a == b:
				return 0
			case a == "SKILL.md":
				return -1
			case b == "SKILL.md":
				return 1
			}
			return strings.Compare(a, b)
		})
		for _, p := range paths {
			sum := sha256.Sum256([]byte(sk.Files[p]))
			e.Resources = append(e.Resources, skillFile{URI: root + p, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: len(sk.Files[p])})
			set.files[root+p] = sk.Files[p]
			if served, ok := sk.Served[p]; ok {
				set.files[root+p] = served
			}
		}
		raw := mustJSON(e)
		set.entries = append(set.entries, raw)
		set.byURI[e.URI] = raw
	}
	return set
}

// contents returns the contents of the skill file at uri, or nil.
func (set *skillSet) contents(uri string) any {
	text, ok := set.files[uri]
	if !ok {
		return nil
	}
	mime := "text/plain"
	if strings.HasSuffix(uri, ".md") {
		mime = "text/markdown"
	}
	return textContents{URI: uri, MimeType: mime, Text: text}
}

func (ss *session) listSkills(ctx context.Context, params json.RawMessage) (any, error) {
	return ss.listPage("skills/list", "skills", params, ss.srv.skills.entries)
}

func (ss *session) getSkill(ctx context.Context, params json.RawMessage) (any, error) {
	var p uriParams
	if err := decodeParams("skills/get", params, &p); err != nil {
		return nil, err
	}
	e, ok := ss.srv.skills.byURI[p.URI]
	if !ok {
		return nil, invalidParams("skills/get: no skill is served at %s", p.URI)
	}
	return map[string]json.RawMessage{"skill": e}, nil
}
