package toolreg

import (
	"context"
	"fmt"
	"strings"

	"github.com/plainmcp/plainmcp/mcpclient/skill"
)

// Skill is one skill as the registry exposes it: what a host shows its
// model (the name and the description) until the model asks to use it.
type Skill struct {
	Name   string       // the exposed name, mcp__<server>__<skill>
	Server string       // the server that serves it
	Def    *skill.Skill // the entry as the server listed it: loading verifies against it
}

// skillTable is one naming of the skills: the table that routes names, and
// the entry each name stands for.
type skillTable struct {
	names   *nameTable
	entries map[Ref]*skill.Skill
}

// Skills lists the skills of every connected server that declares the
// skills extension, reading none of their files, and names them as prompts
// are: mcp__<server>__<skill>, so that each server's skills stay in a
// namespace of their own (the SEP requires that no server's skill shadow
// another's). Two skills of one server with the same name are told apart
// by their paths: each is named mcp__<server>__<path>, the path's '/'
// becoming '_'. Listings are cached and refreshed as tools are (after
// notifications/resources/list_changed). A server that cannot list is
// logged and contributes what it listed last; the error is non-nil only
// when ctx ends.
func (r *Registry) Skills(ctx context.Context) ([]Skill, error) {
	servers := r.snapshot()
	lists, err := listAll(ctx, r, servers, (*server).listSkills)
	if err != nil {
		return nil, err
	}
	var refs []Ref
	entries := map[Ref]*skill.Skill{}
	for i, s := range servers {
		count := map[string]int{}
		for _, sk := range lists[i] {
			count[sk.Name]++
		}
		for _, sk := range lists[i] {
			ref := Ref{Server: s.cfg.Name, Tool: sk.Name}
			if sk.Name == "" || count[sk.Name] > 1 {
				ref.Tool = skillPath(sk.URI)
			}
			if entries[ref] == nil { // a skill listed twice counts once
				entries[ref] = sk
				refs = append(refs, ref)
			}
		}
	}
	table := &skillTable{names: buildNames(refs, nil), entries: entries}
	r.mu.Lock()
	r.skillNames = table
	r.mu.Unlock()
	out := make([]Skill, 0, len(refs))
	for _, ref := range refs {
		name, _ := table.names.Name(ref)
		out = append(out, Skill{Name: name, Server: ref.Server, Def: entries[ref]})
	}
	return out, nil
}

// skillPath is a skill's path: its URI without the scheme and /SKILL.md.
func skillPath(uri string) string {
	if _, rest, ok := strings.Cut(uri, "://"); ok {
		uri = rest
	}
	return strings.TrimSuffix(uri, "/SKILL.md")
}

// LoadSkill loads a skill by its exposed name from the server that listed
// it, verified against the entry that listing gave (see skill.Load): its
// SKILL.md is read and checked now, its other files when the host reads
// them through the result (Loaded.ReadFile), from the same server. A skill that fails verification is an error matching
// skill.ErrVerification; an unknown name wraps ErrUnknownTool (a
// first listing is made if none was).
//
// The content is the server's, not the host's: show where it came from,
// and let nothing in it (allowed-tools, say) widen what the model may do
// without the user's approval.
func (r *Registry) LoadSkill(ctx context.Context, name string) (*skill.Loaded, error) {
	r.mu.Lock()
	table := r.skillNames
	r.mu.Unlock()
	if table == nil {
		if _, err := r.Skills(ctx); err != nil {
			return nil, err
		}
		r.mu.Lock()
		table = r.skillNames
		r.mu.Unlock()
	}
	var ref Ref
	ok := false
	if table != nil { // a Remove may have reset it
		ref, ok = table.names.Lookup(name)
	}
	if !ok {
		return nil, fmt.Errorf("%w: no skill %q", ErrUnknownTool, name)
	}
	session, err := r.Session(ctx, ref.Server)
	if err != nil {
		return nil, err
	}
	loaded, err := skill.Load(ctx, session, table.entries[ref])
	if err != nil {
		return nil, fmt.Errorf("server %q: %w", ref.Server, err)
	}
	return loaded, nil
}
