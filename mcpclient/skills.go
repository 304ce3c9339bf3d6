package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
)

// The skills extension (SEP-2640, io.modelcontextprotocol/skills): a server
// serves Agent Skills — a SKILL.md with YAML frontmatter, plus supporting
// files — as resources, and lists them with skills/list. A listing entry is
// a complete manifest: every file's URI, SHA-256 digest and size. Listing
// reads no file. Loading a skill, which reads and verifies its files
// against the entry, is package mcpclient/skill's: it hashes with
// crypto/sha256, which a program that never loads a skill need not link.

// SkillsExtension is the skills extension's identifier, the key under
// which a server declares it in capabilities.extensions.
const SkillsExtension = "io.modelcontextprotocol/skills"

// The SEP's per-skill limits, which every host must accept and this
// client does not exceed: a larger skill is refused before any of it is
// read.
const (
	MaxSkillFiles = 512      // files per skill, SKILL.md included
	MaxSkillSize  = 16 << 20 // bytes, summed over a skill's files
)

// ErrSkillsNotOffered is returned by ListSkills and GetSkill when the
// server did not declare the skills extension: the SEP forbids asking.
var ErrSkillsNotOffered = errors.New("mcpclient: the server does not offer the skills extension")

// Skill is one skill as skills/list or skills/get describes it. It is
// the entry a skill is verified against when loaded; nothing in it has
// been read from the skill's files. The session never changes an entry
// once it has returned it: share it freely, but do not modify it.
type Skill struct {
	// URI is the skill's SKILL.md: skill://<skill-path>/SKILL.md, the
	// last segment of the skill path being the skill's name.
	URI string
	// Name and Description are the frontmatter's name and description.
	// They come from the server: data to show, never instructions.
	Name        string
	Description string
	// Frontmatter is the SKILL.md's frontmatter as the server rendered
	// it, a JSON object, byte for byte.
	Frontmatter json.RawMessage
	// SkillMD is the SKILL.md's own entry among the skill's files: its
	// declared digest and size.
	SkillMD SkillFile
	// Files are the supporting files, in the order listed.
	Files []SkillFile
	// Dynamic is set when the server lists the skill's resources as
	// "dynamic": it publishes no digests, so the content cannot be
	// verified, and Check refuses it.
	Dynamic bool

	invalid string // why the entry's shape is invalid, found while decoding
}

// SkillFile is one file of a skill: its resource URI, the SHA-256 digest
// of its bytes ("sha256:" and 64 lowercase hex digits) and their number.
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// Root returns the skill's directory: its URI without "/SKILL.md".
func (sk *Skill) Root() string {
	return strings.TrimSuffix(sk.URI, "/SKILL.md")
}

// RelPath returns a file's path within the skill ("references/FORMS.md"),
// or its URI if it lies outside.
func (sk *Skill) RelPath(f SkillFile) string {
	if rel, ok := strings.CutPrefix(f.URI, sk.Root()+"/"); ok {
		return rel
	}
	return f.URI
}

// ListSkillsResult is one page of skills/list.
type ListSkillsResult struct {
	Skills     []*Skill
	NextCursor string
	Meta       json.RawMessage
}

// skillWire is a skill entry as it travels. Frontmatter and resources are
// kept raw, so that an entry of a wrong shape is reported rather than
// failing the whole page.
type skillWire struct {
	URI         string          `json:"uri"`
	Frontmatter json.RawMessage `json:"frontmatter"`
	Resources   json.RawMessage `json:"resources"`
}

type skillsPage struct {
	Skills     []skillWire     `json:"skills"`
	NextCursor string          `json:"nextCursor,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
	resultEnvelope
}

// offersSkills reports whether the server declared the skills extension.
func (s *Session) offersSkills() bool {
	return s.Capabilities().HasExtension(SkillsExtension)
}

// ListSkills fetches one page of the server's skills; cursor "" asks for
// the first. It reads no skill file. A server that did not declare the
// skills extension is not asked: the error is ErrSkillsNotOffered. An
// entry whose shape is wrong is listed all the same, so a host can show
// it; its Check says why it cannot be loaded.
func (s *Session) ListSkills(ctx context.Context, cursor string) (*ListSkillsResult, error) {
	if !s.offersSkills() {
		return nil, ErrSkillsNotOffered
	}
	var page skillsPage
	if err := s.listPage(ctx, "skills/list", cursor, &page); err != nil {
		return nil, err
	}
	res := &ListSkillsResult{Skills: make([]*Skill, len(page.Skills)), NextCursor: page.NextCursor, Meta: page.Meta}
	for i := range page.Skills {
		res.Skills[i] = page.Skills[i].skill()
	}
	return res, checkItems(res.Skills, "skills/list", func(sk *Skill) string { return sk.URI })
}

// Skills iterates over every skill the server lists, fetching pages as it
// goes. An error ends the iteration as its last pair.
func (s *Session) Skills(ctx context.Context) iter.Seq2[*Skill, error] {
	return paginate(s, "skills/list", func(c string) ([]*Skill, string, error) {
		r, err := s.ListSkills(ctx, c)
		if err != nil {
			return nil, "", err
		}
		return r.Skills, r.NextCursor, nil
	})
}

// GetSkill asks for the entry of one skill by the URI of its SKILL.md
// (skills/get): a skill the listing left out, or a fresh entry for one
// whose files changed. A URI the server serves no skill at is a
// *jsonrpc.Error with code jsonrpc.CodeInvalidParams.
func (s *Session) GetSkill(ctx context.Context, uri string) (*Skill, error) {
	if !s.offersSkills() {
		return nil, ErrSkillsNotOffered
	}
	var res struct {
		Skill *skillWire `json:"skill"`
		resultEnvelope
	}
	// No Mcp-Name: the HTTP standard headers name the targets of
	// tools/call, prompts/get and resources/read only.
	if err := s.call(ctx, "skills/get", uriParams{uri}, &res); err != nil {
		return nil, err
	}
	if res.Skill == nil || res.Skill.URI != uri {
		return nil, fmt.Errorf("%w: skills/get for %s answered with another skill or none", ErrMalformedResult, truncate(uri, 80))
	}
	return res.Skill.skill(), nil
}

// skill converts an entry, noting in invalid what is wrong with its shape.
func (w *skillWire) skill() *Skill {
	sk := &Skill{URI: w.URI, Frontmatter: w.Frontmatter}
	var fm map[string]json.RawMessage
	if json.Unmarshal(w.Frontmatter, &fm) != nil || fm == nil {
		sk.invalid = "its frontmatter is not an object"
		return sk
	}
	if json.Unmarshal(fm["name"], &sk.Name) != nil || json.Unmarshal(fm["description"], &sk.Description) != nil {
		sk.invalid = "its frontmatter's name or description is not a string"
		return sk
	}
	if string(w.Resources) == `"dynamic"` {
		sk.Dynamic = true
		return sk
	}
	var files []*struct {
		URI    *string      `json:"uri"`
		Digest *string      `json:"digest"`
		Size   *json.Number `json:"size"`
	}
	if json.Unmarshal(w.Resources, &files) != nil || files == nil {
		sk.invalid = `its resources are neither a list of files nor "dynamic"`
		return sk
	}
	for i, f := range files {
		if f == nil || f.URI == nil || f.Digest == nil || f.Size == nil {
			sk.invalid = fmt.Sprintf("file %d lacks its uri, digest or size", i)
			return sk
		}
		size, err := f.Size.Int64()
		if err != nil {
			sk.invalid = fmt.Sprintf("file %d's size is not a whole number", i)
			return sk
		}
		file := SkillFile{URI: *f.URI, Digest: *f.Digest, Size: size}
		if file.URI == sk.URI && sk.SkillMD.URI == "" {
			sk.SkillMD = file
		} else {
			sk.Files = append(sk.Files, file)
		}
	}
	return sk
}
