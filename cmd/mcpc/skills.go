package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/plainmcp/plainmcp/mcpclient/skill"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/skills"
)

// skillFileJSON is one file of a skill in `skills --json` and `skill --json`.
type skillFileJSON struct {
	Path   string `json:"path"`
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// skillJSON is one skill in `skills --json`: its entry, nothing read.
type skillJSON struct {
	Name        string          `json:"name"`
	Server      string          `json:"server"`
	Skill       string          `json:"skill"`
	URI         string          `json:"uri"`
	Description string          `json:"description"`
	Frontmatter json.RawMessage `json:"frontmatter,omitempty"`
	Dynamic     bool            `json:"dynamic,omitempty"`
	Files       []skillFileJSON `json:"files"`
	Problem     string          `json:"problem,omitempty"` // why it cannot be loaded
}

func skillFiles(sk *skill.Skill) []skillFileJSON {
	files := []skillFileJSON{}
	if sk.SkillMD.URI != "" {
		files = append(files, skillFileJSON{"SKILL.md", sk.SkillMD.URI, sk.SkillMD.Digest, sk.SkillMD.Size})
	}
	for _, f := range sk.Files {
		files = append(files, skillFileJSON{sk.RelPath(f), f.URI, f.Digest, f.Size})
	}
	return files
}

// listSkills is skills.List in the shape listCommand takes.
func listSkills(r *toolreg.Registry, ctx context.Context) ([]skills.Skill, error) {
	return skills.List(ctx, r)
}

// cmdSkills lists the skills of every server, reading none of their files.
func cmdSkills(ctx context.Context, e *env, _ []string) error {
	return listCommand(ctx, e, "skill", listSkills, func(sk skills.Skill) skillJSON {
		out := skillJSON{Name: sk.Name, Server: sk.Server, Skill: sk.Def.Name, URI: sk.Def.URI,
			Description: sk.Def.Description, Frontmatter: sk.Def.Frontmatter, Dynamic: sk.Def.Dynamic, Files: skillFiles(sk.Def)}
		if err := sk.Def.Check(); err != nil {
			out.Problem = err.Error()
		}
		return out
	}, func(sk skillJSON) groupRow {
		row := groupRow{sk.Server, sk.Name, sk.Description}
		if sk.Problem != "" {
			row.desc = "(cannot be loaded) " + row.desc
		}
		return row
	})
}

// loadedJSON is `skill --json`: the verified SKILL.md and the files.
type loadedJSON struct {
	Name        string          `json:"name"`
	Server      string          `json:"server"`
	URI         string          `json:"uri"`
	Content     string          `json:"content"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Files       []skillFileJSON `json:"files"`
}

// fileJSON is `skill --json NAME FILE`: one verified file.
type fileJSON struct {
	Name    string `json:"name"`
	Server  string `json:"server"`
	Path    string `json:"path"`
	Content string `json:"content,omitempty"`
	Blob    []byte `json:"blob,omitempty"` // a file that is not UTF-8 text, in base64
}

// cmdSkill loads a skill, verified, and prints its SKILL.md and its files;
// with a file named too, it prints that file, verified.
func cmdSkill(ctx context.Context, e *env, args []string) error {
	reg, err := e.connect(ctx)
	if err != nil {
		return err
	}
	listed, err := skills.List(ctx, reg)
	if err != nil {
		return err
	}
	sk, err := e.resolveSkill(listed, args[0])
	if err != nil {
		return err
	}
	loaded, err := skills.Load(ctx, reg, sk.Name)
	if err != nil {
		return err
	}
	if len(args) == 2 {
		b, err := loaded.ReadFile(ctx, args[1])
		if err != nil {
			return err
		}
		out := fileJSON{Name: sk.Name, Server: sk.Server, Path: args[1]}
		if utf8.Valid(b) {
			out.Content = string(b)
		} else {
			out.Blob = b
		}
		return e.out.print(out, func(w io.Writer) { w.Write(b) })
	}
	out := loadedJSON{Name: sk.Name, Server: sk.Server, URI: sk.Def.URI, Content: string(loaded.Content),
		Frontmatter: loaded.Frontmatter, Files: skillFiles(sk.Def)}
	return e.out.print(out, func(w io.Writer) {
		fmt.Fprintf(w, "skill %s from server %s, %s, %d bytes: size, digest and frontmatter verified\n\n",
			sk.Name, sk.Server, clean(sk.Def.URI), sk.Def.SkillMD.Size)
		printText(w, string(loaded.Content))
		if len(sk.Def.Files) == 0 {
			return
		}
		fmt.Fprintf(w, "\nfiles, verified when read (mcpc skill %s FILE):\n", sk.Name)
		cols := newColumns(w)
		for _, f := range out.Files[1:] {
			cols.row("  "+clean(f.Path), fmt.Sprintf("%d bytes", f.Size))
		}
		cols.flush()
	})
}

// resolveSkill finds the skill the user named, as resolveTool finds a tool.
func (e *env) resolveSkill(listed []skills.Skill, name string) (skills.Skill, error) {
	for _, sk := range listed {
		if sk.Name == name {
			return sk, nil
		}
	}
	if server := e.single(); server != "" {
		q := toolreg.Qualify(server, name)
		for _, sk := range listed {
			if sk.Name == q || (sk.Server == server && sk.Def.Name == name) {
				return sk, nil
			}
		}
	}
	return skills.Skill{}, unknownName(e, "skill", name)
}
