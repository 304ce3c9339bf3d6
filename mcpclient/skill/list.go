package skill

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/internal/ext"
)

// The skills extension (SEP-2640, io.modelcontextprotocol/skills): a server
// serves Agent Skills — a SKILL.md with YAML frontmatter, plus supporting
// files — as resources, and lists them with skills/list. A listing entry is
// a complete manifest: every file's URI, SHA-256 digest and size. Listing
// reads no file; loading a skill reads and verifies its files against the
// entry (load.go).

// The SEP's per-skill limits, which every host must accept and this
// client does not exceed: a larger skill is refused before any of it is
// read.
const (
	maxFiles = 512      // files per skill, SKILL.md included
	maxSize  = 16 << 20 // bytes, summed over a skill's files
)

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
	SkillMD File
	// Files are the supporting files, in the order listed.
	Files []File
	// Dynamic is set when the server lists the skill's resources as
	// "dynamic": it publishes no digests, so the content cannot be
	// verified, and Check refuses it.
	Dynamic bool

	invalid string // why the entry's shape is invalid, found while decoding
}

// File is one file of a skill: its resource URI, the SHA-256 digest
// of its bytes ("sha256:" and 64 lowercase hex digits) and their number.
type File struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// root returns the skill's directory: its URI without "/SKILL.md".
func (sk *Skill) root() string {
	return strings.TrimSuffix(sk.URI, "/SKILL.md")
}

// RelPath returns a file's path within the skill ("references/FORMS.md"),
// or its URI if it lies outside.
func (sk *Skill) RelPath(f File) string {
	if rel, ok := strings.CutPrefix(f.URI, sk.root()+"/"); ok {
		return rel
	}
	return f.URI
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
}

// offered reports whether the server declared the skills extension.
func offered(s *mcpclient.Session) bool {
	return s.Capabilities().HasExtension(mcpext.Skills)
}

// listPage fetches one page of the server's skills; cursor "" asks for
// the first. It reads no skill file.
func listPage(ctx context.Context, s *mcpclient.Session, cursor string) ([]*Skill, string, error) {
	if !offered(s) {
		return nil, "", ErrNotOffered
	}
	var page skillsPage
	if err := ext.SessionOf(s).ListPage(ctx, "skills/list", cursor, &page); err != nil {
		return nil, "", err
	}
	skills := make([]*Skill, len(page.Skills))
	for i := range page.Skills {
		if page.Skills[i].URI == "" {
			return nil, "", fmt.Errorf("%w: skills/list item %d has no name", mcpclient.ErrMalformedResult, i)
		}
		skills[i] = page.Skills[i].skill()
	}
	return skills, page.NextCursor, nil
}

// All iterates over every skill the server lists, fetching pages as it
// goes; it reads no skill file. A server that did not declare the skills
// extension is not asked: the error is ErrNotOffered. An entry whose shape
// is wrong is listed all the same, so a host can show it; its Check says
// why it cannot be loaded. An error ends the iteration as its last pair.
func All(ctx context.Context, s *mcpclient.Session) iter.Seq2[*Skill, error] {
	return ext.Paginate(ext.SessionOf(s), "skills/list", func(c string) ([]*Skill, string, error) {
		return listPage(ctx, s, c)
	})
}

// Get asks for the entry of one skill by the URI of its SKILL.md
// (skills/get): a skill the listing left out, or a fresh entry for one
// whose files changed. A URI the server serves no skill at is a
// *jsonrpc.Error with code jsonrpc.CodeInvalidParams.
func Get(ctx context.Context, s *mcpclient.Session, uri string) (*Skill, error) {
	if !offered(s) {
		return nil, ErrNotOffered
	}
	var res struct {
		Skill *skillWire `json:"skill"`
	}
	// No Mcp-Name: the HTTP standard headers name the targets of
	// tools/call, prompts/get and resources/read only.
	if err := s.Call(ctx, "skills/get", map[string]string{"uri": uri}, &res); err != nil {
		return nil, err
	}
	if res.Skill == nil || res.Skill.URI != uri {
		return nil, fmt.Errorf("%w: skills/get for %s answered with another skill or none", mcpclient.ErrMalformedResult, truncate(uri, 80))
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
	sk.invalid = sk.addFiles(w.Resources)
	return sk
}

// addFiles decodes an entry's list of files into SkillMD and Files, and
// says what is wrong with its shape, or "".
func (sk *Skill) addFiles(resources json.RawMessage) string {
	var files []*struct {
		URI    *string      `json:"uri"`
		Digest *string      `json:"digest"`
		Size   *json.Number `json:"size"`
	}
	if json.Unmarshal(resources, &files) != nil || files == nil {
		return `its resources are neither a list of files nor "dynamic"`
	}
	for i, f := range files {
		if f == nil || f.URI == nil || f.Digest == nil || f.Size == nil {
			return fmt.Sprintf("file %d lacks its uri, digest or size", i)
		}
		size, err := f.Size.Int64()
		if err != nil {
			return fmt.Sprintf("file %d's size is not a whole number", i)
		}
		file := File{URI: *f.URI, Digest: *f.Digest, Size: size}
		if file.URI == sk.URI && sk.SkillMD.URI == "" {
			sk.SkillMD = file
		} else {
			sk.Files = append(sk.Files, file)
		}
	}
	return ""
}
