package toolreg

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"iter"
	"slices"
	"strings"
)

// maxNameLen is the longest exposed tool name, in bytes, all ASCII: model
// APIs commonly accept tool names matching ^[A-Za-z0-9_-]{1,64}$.
const maxNameLen = 64

const (
	namePrefix = "mcp__"
	nameSep    = "__"
	hashLen    = 8                        // hex digits of the name hash: 32 bits
	keepLen    = maxNameLen - 1 - hashLen // the readable part before "_<hash>"
)

// A Ref is what an exposed name routes to: a server, by its configured name,
// and one of its tools, by the name the server listed it under.
type Ref struct {
	Server, Tool string
}

// Qualify returns the exposed name of a server's tool, mcp__<server>__<tool>,
// made safe for model APIs.
//
// Each character outside [A-Za-z0-9_-] becomes '_'. A character is a
// Unicode code point: "é" and "🔥" each become a single '_' (JavaScript
// hosts that replace UTF-16 code units write two for the emoji), and each
// byte that is not valid UTF-8 becomes one '_'.
//
// A name longer than 64 bytes keeps its first 55 characters and ends in
// '_' and 8 hex digits of a SHA-256 hash of the original server and tool
// names, so the same tool gets the same name in every listing and every
// release, and long names that share a prefix still differ.
//
// Distinct tools can qualify to the same name ("a.b" and "a_b"; server
// "a__b" with tool "c" and server "a" with tool "b__c"); buildNames tells
// them apart. Qualify is safe for concurrent use.
func Qualify(server, tool string) string {
	ref := Ref{server, tool}
	var buf fullBuf
	b := fullName(buf[:0], ref)
	if len(b) <= maxNameLen {
		return string(b)
	}
	return hashedName(b, ref, 0)
}

// A fullBuf holds what fullName writes.
type fullBuf [maxNameLen + 1 + len(nameSep)]byte

// fullName appends the normalized name of ref to b: the whole name if it
// fits in maxNameLen bytes, else at least its first maxNameLen+1.
func fullName(b []byte, ref Ref) []byte {
	b = append(b, namePrefix...)
	b = appendNormalized(b, ref.Server)
	b = append(b, nameSep...)
	return appendNormalized(b, ref.Tool)
}

// appendNormalized appends s to b with each rune outside [A-Za-z0-9_-]
// replaced by '_'. It stops once b is longer than maxNameLen: the caller then
// shortens the name, and need not see the rest.
func appendNormalized(b []byte, s string) []byte {
	for _, r := range s { // an invalid byte comes as utf8.RuneError, one byte wide
		if len(b) > maxNameLen {
			break
		}
		if !isNameChar(r) {
			r = '_'
		}
		b = append(b, byte(r))
	}
	return b
}

func isNameChar(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}

// hashedName returns the first keepLen bytes of the normalized name full,
// then '_' and the hash of ref's original names under salt. Salt 0 is the
// hash Qualify uses; buildNames tries further salts only when a hashed name
// is itself taken.
func hashedName(full []byte, ref Ref, salt int) string {
	keep := full[:min(len(full), keepLen)]
	var buf [maxNameLen]byte
	b := append(buf[:0], keep...)
	b = append(b, '_')
	b = appendHash(b, ref, salt)
	return string(b)
}

// appendHash appends hashLen hex digits of SHA-256 over the lengths and bytes
// of the server and tool names (so no two refs share an input) and, if not
// zero, the salt.
func appendHash(b []byte, ref Ref, salt int) []byte {
	var buf [128]byte
	in := binary.AppendUvarint(buf[:0], uint64(len(ref.Server)))
	in = append(in, ref.Server...)
	in = binary.AppendUvarint(in, uint64(len(ref.Tool)))
	in = append(in, ref.Tool...)
	if salt != 0 {
		in = binary.AppendUvarint(in, uint64(salt))
	}
	sum := sha256.Sum256(in)
	return hex.AppendEncode(b, sum[:hashLen/2])
}

// A nameTable maps the exposed names of one listing of tools to the tools
// and back. buildNames makes one; it is immutable afterwards and safe for
// concurrent use. Calls route by nameTable.Lookup, a map lookup: an exposed
// name is never parsed. A nil *nameTable is an empty table.
type nameTable struct {
	byName  map[string]Ref
	byRef   map[Ref]string
	refs    []Ref // sorted by server, then tool
	names   []string
	renames []Rename
}

// A Rename reports a tool whose exposed name is not its [Qualify] name,
// because that name is reserved by the host or because another tool of the
// listing qualifies to the same name.
type Rename struct {
	Ref      Ref
	Plain    string // Qualify(Ref.Server, Ref.Tool)
	Name     string // the exposed name the tool got instead
	Reserved bool   // Plain is reserved; otherwise it collided with another tool's
}

// buildNames assigns an exposed name to every tool of a listing.
//
// A tool gets its [Qualify] name unless that name is one of reserved (the
// host's own tool names) or another tool qualifies to the same name. Such
// tools are all kept, and each is renamed: its normalized name, cut to 55
// characters if longer, then '_' and 8 hex digits of a hash of its original
// server and tool names. If that name is taken too, the hash is salted until
// it is free. nameTable.Renames reports the renamed tools, so a host can
// tell its user.
//
// Names compare case-insensitively for collisions and reserved names:
// "Search" and "search" are a collision, and reserving "Read" reserves
// "READ". Some model APIs and hosts fold case, and a model easily confuses
// the two, so no two exposed names of a table differ only in case.
//
// The result depends only on the set of tools, not on their order; a tool
// listed twice counts once. Building is O(n log n) in the number of tools.
func buildNames(tools []Ref, reserved []string) *nameTable {
	refs := slices.Clone(tools)
	slices.SortFunc(refs, compareRefs)
	refs = slices.Compact(refs)

	t := &nameTable{
		byName: make(map[string]Ref, len(refs)),
		byRef:  make(map[Ref]string, len(refs)),
		refs:   refs,
		names:  make([]string, len(refs)),
	}
	isReserved := make(map[string]bool, len(reserved))
	for _, r := range reserved {
		isReserved[strings.ToLower(r)] = true
	}
	// The folded names no tool may take any more: reserved, or assigned.
	blocked := make(map[string]bool, len(refs)+len(reserved))
	for k := range isReserved {
		blocked[k] = true
	}
	plain, pending := t.assignPlain(isReserved, blocked)
	t.assignHashed(pending, blocked)
	for i, r := range refs {
		t.byName[t.names[i]] = r
		t.byRef[r] = t.names[i]
		if t.names[i] != plain[i] {
			t.renames = append(t.renames, Rename{
				Ref:      r,
				Plain:    plain[i],
				Name:     t.names[i],
				Reserved: isReserved[strings.ToLower(plain[i])],
			})
		}
	}
	return t
}

// assignPlain gives each tool its plain name (Qualify's) unless another
// folds to it or it is reserved; it returns those names and the rest.
func (t *nameTable) assignPlain(isReserved, blocked map[string]bool) (plain []string, pending []int) {
	plain = make([]string, len(t.refs))
	count := make(map[string]int, len(t.refs))
	for i, r := range t.refs {
		plain[i] = Qualify(r.Server, r.Tool)
		count[strings.ToLower(plain[i])]++
	}
	for i, p := range plain {
		if k := strings.ToLower(p); count[k] == 1 && !isReserved[k] {
			t.names[i] = p
			blocked[k] = true
		} else {
			pending = append(pending, i)
		}
	}
	return plain, pending
}

// assignHashed names the pending tools: each round gives each a hashed
// name, final if no other drew it and it is not blocked; the rest try the
// next salt. Round 0 gives a long name the one Qualify gave it, so a long
// tool keeps its name against a short tool spelled like it. A further
// round is as unlikely as a 32-bit hash collision.
func (t *nameTable) assignHashed(pending []int, blocked map[string]bool) {
	var buf fullBuf
	count := make(map[string]int, len(pending))
	cand := make([]string, len(pending))
	for salt := 0; len(pending) > 0; salt++ {
		clear(count)
		cand = cand[:len(pending)]
		for j, i := range pending {
			full := fullName(buf[:0], t.refs[i])
			cand[j] = hashedName(full, t.refs[i], salt)
			count[strings.ToLower(cand[j])]++
		}
		next := pending[:0]
		for j, i := range pending {
			if k := strings.ToLower(cand[j]); count[k] == 1 && !blocked[k] {
				t.names[i] = cand[j]
				blocked[k] = true
			} else {
				next = append(next, i)
			}
		}
		pending = next
	}
}

func compareRefs(a, b Ref) int {
	if c := cmp.Compare(a.Server, b.Server); c != 0 {
		return c
	}
	return cmp.Compare(a.Tool, b.Tool)
}

// Lookup returns the tool an exposed name routes to. The name must be exactly
// as the table gave it, case included.
func (t *nameTable) Lookup(name string) (Ref, bool) {
	if t == nil {
		return Ref{}, false
	}
	r, ok := t.byName[name]
	return r, ok
}

// Name returns the exposed name of a tool, and false if the tool was not in
// the listing.
func (t *nameTable) Name(ref Ref) (string, bool) {
	if t == nil {
		return "", false
	}
	n, ok := t.byRef[ref]
	return n, ok
}

// Len returns the number of tools in the table.
func (t *nameTable) Len() int {
	if t == nil {
		return 0
	}
	return len(t.refs)
}

// All yields each exposed name and its tool, ordered by server and then
// tool name.
func (t *nameTable) All() iter.Seq2[string, Ref] {
	return func(yield func(string, Ref) bool) {
		if t == nil {
			return
		}
		for i, r := range t.refs {
			if !yield(t.names[i], r) {
				return
			}
		}
	}
}

// Renames returns the tools whose exposed name is not their [Qualify] name,
// ordered by server and then tool name, in a new slice.
func (t *nameTable) Renames() []Rename {
	if t == nil {
		return nil
	}
	return slices.Clone(t.renames)
}
