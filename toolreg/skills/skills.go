// Package skills is the skills extension (SEP-2640) in a registry: the
// skills of every server that declares it, named as prompts are ([List]),
// and loaded, verified, from the server that listed them ([Load]). A host
// that calls neither links none of it, nor package mcpclient/skill.
//
// Listing and loading work without declaring the extension, but a server
// may tailor what it offers to clients that declare it: a host that uses
// this package sets Skills in the registry's Options.Session, as mcpc
// does; the registry declares nothing a host did not ask for.
package skills

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/plainmcp/plainmcp/internal/mcpext"
	"github.com/plainmcp/plainmcp/mcpclient"
	"github.com/plainmcp/plainmcp/mcpclient/skill"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/toolreg/internal/ext"
)

// Skill is one skill as the registry exposes it: what a host shows its
// model (the name and the description) until the model asks to use it.
type Skill struct {
	Name   string       // the exposed name, mcp__<server>__<skill>
	Server string       // the server that serves it
	Def    *skill.Skill // the entry as the server listed it: loading verifies against it
}

// kind names the skills' listings in the registry's caches.
const kind = "skills"

// table is one naming of the skills, kept by the registry until its
// servers change: each exposed name and the skill it stands for.
type table map[string]Skill

func offers(c mcpclient.ServerCapabilities) bool { return c.HasExtension(mcpext.Skills) }

func all(ctx context.Context, session *mcpclient.Session) iter.Seq2[any, error] {
	return func(yield func(any, error) bool) {
		for sk, err := range skill.All(ctx, session) {
			if !yield(sk, err) {
				return
			}
		}
	}
}

// List lists the skills of every connected server of r that declares the
// skills extension, reading none of their files, and names them as
// prompts are: mcp__<server>__<skill>, so that each server's skills stay
// in a namespace of their own (the SEP requires that no server's skill
// shadow another's). Two skills of one server with the same name are told
// apart by their paths: each is named mcp__<server>__<path>, the path's
// '/' becoming '_'. Listings are cached and refreshed as tools are (after
// notifications/resources/list_changed). A server that cannot list is
// logged and contributes what it listed last; the error is non-nil only
// when ctx ends.
func List(ctx context.Context, r *toolreg.Registry) ([]Skill, error) {
	reg := ext.RegistryOf(r)
	servers, lists, err := reg.List(ctx, kind, offers, all)
	if err != nil {
		return nil, err
	}
	var refs [][2]string
	var defs []*skill.Skill
	seen := map[[2]string]bool{}
	for i, server := range servers {
		count := map[string]int{}
		for _, item := range lists[i] {
			count[item.(*skill.Skill).Name]++
		}
		for _, item := range lists[i] {
			sk := item.(*skill.Skill)
			ref := [2]string{server, sk.Name}
			if sk.Name == "" || count[sk.Name] > 1 {
				ref[1] = skillPath(sk.URI)
			}
			if !seen[ref] { // a skill listed twice counts once
				seen[ref] = true
				refs, defs = append(refs, ref), append(defs, sk)
			}
		}
	}
	names := reg.Names(refs)
	out := make([]Skill, len(refs))
	named := make(table, len(refs))
	for i, ref := range refs {
		out[i] = Skill{Name: names[i], Server: ref[0], Def: defs[i]}
		named[names[i]] = out[i]
	}
	reg.Keep(kind, named)
	return out, nil
}

// skillPath is a skill's path: its URI without the scheme and /SKILL.md.
func skillPath(uri string) string {
	if _, rest, ok := strings.Cut(uri, "://"); ok {
		uri = rest
	}
	return strings.TrimSuffix(uri, "/SKILL.md")
}

// Load loads a skill of r by its exposed name from the server that listed
// it, verified against the entry that listing gave (see skill.Load): its
// SKILL.md is read and checked now, its other files when the host reads
// them through the result (Loaded.ReadFile), from the same server. A
// skill that fails verification is an error matching
// skill.ErrVerification; an unknown name wraps toolreg.ErrUnknownTool (a
// first listing is made if none was).
//
// The content is the server's, not the host's: show where it came from,
// and let nothing in it (allowed-tools, say) widen what the model may do
// without the user's approval.
func Load(ctx context.Context, r *toolreg.Registry, name string) (*skill.Loaded, error) {
	reg := ext.RegistryOf(r)
	named, _ := reg.Kept(kind).(table)
	if named == nil {
		if _, err := List(ctx, r); err != nil {
			return nil, err
		}
		named, _ = reg.Kept(kind).(table) // a Remove may have dropped it
	}
	sk, ok := named[name]
	if !ok {
		return nil, fmt.Errorf("%w: no skill %q", toolreg.ErrUnknownTool, name)
	}
	session, err := r.Session(ctx, sk.Server)
	if err != nil {
		return nil, err
	}
	loaded, err := skill.Load(ctx, session, sk.Def)
	if err != nil {
		return nil, fmt.Errorf("server %q: %w", sk.Server, err)
	}
	return loaded, nil
}
