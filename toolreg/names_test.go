package toolreg

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// hashedForm matches a name that ends in a hash: up to 55 characters, '_'
// and 8 lower-case hex digits.
var hashedForm = regexp.MustCompile(`^mcp__[A-Za-z0-9_-]{2,50}_[0-9a-f]{8}$`)

func TestQualify(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, tc := range []struct {
		name, server, tool, want string
	}{
		{"ascii", "github", "create_issue", "mcp__github__create_issue"},
		{"hyphens and digits", "my-server2", "get-v1", "mcp__my-server2__get-v1"},
		{"case kept", "GitHub", "CreateIssue", "mcp__GitHub__CreateIssue"},
		{"dots", "fs.local", "read.file", "mcp__fs_local__read_file"},
		{"spaces", "my server", "list all", "mcp__my_server__list_all"},
		{"slashes", "a/b", `c/d\e`, "mcp__a_b__c_d_e"},
		{"glob and brackets", "s", "[x]*?", "mcp__s___x___"},
		{"latin accents", "café", "naïve", "mcp__caf___na_ve"},
		{"decomposed accent", "s", "e\u0301", "mcp__s__e_"},
		{"cjk", "s", "日本語", "mcp__s_____"},
		{"emoji is one rune", "s", "🔥fire", "mcp__s___fire"},
		{"flag is two runes", "s", "🇫🇷", "mcp__s____"},
		{"invalid utf-8 per byte", "s", "a\xff\xfeb", "mcp__s__a__b"},
		{"replacement char", "s", "\uFFFD", "mcp__s___"},
		{"control characters", "s", "a\x00b\nc", "mcp__s__a_b_c"},
		{"empty tool", "srv", "", "mcp__srv__"},
		{"empty server", "", "tool", "mcp____tool"},
		{"both empty", "", "", "mcp____"},
		{"exactly 64", "s", strings.Repeat("t", 56), "mcp__s__" + strings.Repeat("t", 56)},
		{"64 after normalization", "s", strings.Repeat("é", 56), "mcp__s__" + strings.Repeat("_", 56)},
		// A golden value: the hash is part of the name a model has seen, so
		// it must not change between releases.
		{"65 is hashed", "s", strings.Repeat("t", 57), "mcp__s__" + strings.Repeat("t", 47) + "_80d35373"},
		{"very long", "server", long, "mcp__server__" + long[:42] + "_e0ecefa2"},
		{"long server", long, "t", "mcp__" + long[:50] + "_d0281226"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Qualify(tc.server, tc.tool)
			if got != tc.want {
				t.Errorf("Qualify(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
			}
			if !validName.MatchString(got) {
				t.Errorf("Qualify(%q, %q) = %q, not a valid tool name", tc.server, tc.tool, got)
			}
		})
	}
}

func TestQualifyLongNamesStableAndDistinct(t *testing.T) {
	base := strings.Repeat("a", 200)
	seen := map[string]string{}
	for _, tool := range []string{base + "1", base + "2", base + ".", base + "_", "é" + base, "e" + base} {
		got := Qualify("srv", tool)
		if len(got) != maxNameLen || !hashedForm.MatchString(got) {
			t.Errorf("Qualify(srv, %.10q…) = %q, want 64 characters ending in a hash", tool, got)
		}
		if again := Qualify("srv", tool); again != got {
			t.Errorf("Qualify(srv, %.10q…) gave %q, then %q", tool, got, again)
		}
		if prev, ok := seen[got]; ok {
			t.Errorf("Qualify gives %q to both %.10q… and %.10q…", got, prev, tool)
		}
		seen[got] = tool
	}
	// The hash covers the original names, so moving the "__" boundary
	// changes it even though the normalized text is the same.
	a, b := Qualify("a__"+base, "c"), Qualify("a", base+"__c")
	if a == b {
		t.Errorf("Qualify(a__…, c) = Qualify(a, …__c) = %q", a)
	}
}

// checkTable checks what every table must hold: each tool has one valid,
// unreserved name, no two names differ only in case, and names route back.
func checkTable(t *testing.T, tab *nameTable, tools []Ref, reserved []string) {
	t.Helper()
	want := map[Ref]bool{}
	for _, r := range tools {
		want[r] = true
	}
	if tab.Len() != len(want) {
		t.Errorf("Len() = %d, want %d", tab.Len(), len(want))
	}
	res := map[string]bool{}
	for _, r := range reserved {
		res[strings.ToLower(r)] = true
	}
	folded := map[string]string{}
	n := 0
	for name, ref := range tab.All() {
		n++
		if !want[ref] {
			t.Errorf("All() yields %q for %v, not in the listing", name, ref)
		}
		if !validName.MatchString(name) {
			t.Errorf("%v is named %q, not a valid tool name", ref, name)
		}
		if res[strings.ToLower(name)] {
			t.Errorf("%v is named %q, a reserved name", ref, name)
		}
		if other, ok := folded[strings.ToLower(name)]; ok {
			t.Errorf("%v is named %q and another tool %q", ref, name, other)
		}
		folded[strings.ToLower(name)] = name
		if got, ok := tab.Lookup(name); !ok || got != ref {
			t.Errorf("Lookup(%q) = %v, %v; want %v", name, got, ok, ref)
		}
		if got, ok := tab.Name(ref); !ok || got != name {
			t.Errorf("Name(%v) = %q, %v; want %q", ref, got, ok, name)
		}
	}
	if n != len(want) {
		t.Errorf("All() yields %d tools, want %d", n, len(want))
	}
}

// names returns the exposed name of each ref.
func names(t *testing.T, tab *nameTable, refs ...Ref) []string {
	t.Helper()
	var out []string
	for _, r := range refs {
		n, ok := tab.Name(r)
		if !ok {
			t.Fatalf("Name(%v): not in the table", r)
		}
		out = append(out, n)
	}
	return out
}

func TestBuildNames(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tools    []Ref
		reserved []string
		// renamed lists the tools that must not get their Qualify name;
		// every other tool must.
		renamed []Ref
	}{
		{
			name:  "no collisions",
			tools: []Ref{{"a", "x"}, {"a", "y"}, {"b", "x"}, {"b", "y.z"}},
		},
		{
			name:    "punctuation collides",
			tools:   []Ref{{"s", "a.b"}, {"s", "a_b"}, {"s", "a b"}, {"s", "a/b"}, {"s", "ok"}},
			renamed: []Ref{{"s", "a.b"}, {"s", "a_b"}, {"s", "a b"}, {"s", "a/b"}},
		},
		{
			name:    "unicode collides",
			tools:   []Ref{{"s", "café"}, {"s", "cafè"}, {"s", "caf_"}},
			renamed: []Ref{{"s", "café"}, {"s", "cafè"}, {"s", "caf_"}},
		},
		{
			name:    "the separator moves across servers",
			tools:   []Ref{{"a__b", "c"}, {"a", "b__c"}},
			renamed: []Ref{{"a__b", "c"}, {"a", "b__c"}},
		},
		{
			name:    "case only",
			tools:   []Ref{{"s", "Search"}, {"s", "search"}, {"s", "SEARCH"}},
			renamed: []Ref{{"s", "Search"}, {"s", "search"}, {"s", "SEARCH"}},
		},
		{
			name:  "listed twice counts once",
			tools: []Ref{{"s", "t"}, {"s", "t"}},
		},
		{
			name:     "reserved",
			tools:    []Ref{{"ide", "getDiagnostics"}, {"ide", "other"}},
			reserved: []string{"mcp__ide__getDiagnostics", "Read", "Bash"},
			renamed:  []Ref{{"ide", "getDiagnostics"}},
		},
		{
			name:     "reserved in another case",
			tools:    []Ref{{"ide", "getDiagnostics"}},
			reserved: []string{"MCP__IDE__GETDIAGNOSTICS"},
			renamed:  []Ref{{"ide", "getDiagnostics"}},
		},
		{
			name:     "reserved and colliding",
			tools:    []Ref{{"s", "a.b"}, {"s", "a_b"}},
			reserved: []string{"mcp__s__a_b"},
			renamed:  []Ref{{"s", "a.b"}, {"s", "a_b"}},
		},
		{
			name:  "long names sharing a prefix",
			tools: []Ref{{"s", strings.Repeat("p", 80) + "1"}, {"s", strings.Repeat("p", 80) + "2"}},
		},
		{
			name:  "empty",
			tools: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := buildNames(tc.tools, tc.reserved)
			checkTable(t, tab, tc.tools, tc.reserved)
			isRenamed := map[Ref]bool{}
			for _, r := range tc.renamed {
				isRenamed[r] = true
			}
			for _, r := range tc.tools {
				got, _ := tab.Name(r)
				plain := Qualify(r.Server, r.Tool)
				switch {
				case isRenamed[r] && got == plain:
					t.Errorf("%v kept its name %q, want it renamed", r, got)
				case isRenamed[r] && !strings.HasPrefix(got, plain[:min(len(plain), keepLen)]+"_"):
					t.Errorf("%v is named %q, want %q, '_' and a hash", r, got, plain)
				case !isRenamed[r] && got != plain:
					t.Errorf("%v is named %q, want %q", r, got, plain)
				}
			}
			var wantRenames []Ref
			for _, rn := range tab.Renames() {
				wantRenames = append(wantRenames, rn.Ref)
				if !isRenamed[rn.Ref] {
					t.Errorf("Renames() reports %v", rn.Ref)
				}
			}
			if len(wantRenames) != len(isRenamed) {
				t.Errorf("Renames() reports %v, want %v", wantRenames, tc.renamed)
			}
		})
	}
}

func TestBuildNamesReportsRenames(t *testing.T) {
	tools := []Ref{{"s", "x.y"}, {"s", "x_y"}, {"ide", "diag"}}
	tab := buildNames(tools, []string{"mcp__IDE__diag"})
	n := names(t, tab, tools...)
	want := []Rename{
		{Ref: Ref{"ide", "diag"}, Plain: "mcp__ide__diag", Name: n[2], Reserved: true},
		{Ref: Ref{"s", "x.y"}, Plain: "mcp__s__x_y", Name: n[0]},
		{Ref: Ref{"s", "x_y"}, Plain: "mcp__s__x_y", Name: n[1]},
	}
	if diff := cmp.Diff(want, tab.Renames()); diff != "" {
		t.Errorf("Renames() (-want +got):\n%s", diff)
	}
	tab.Renames()[0].Name = "changed"
	if tab.Renames()[0].Name == "changed" {
		t.Error("Renames() shares its slice with the table")
	}
}

// A tool's hashed name may be taken already: by a reserved name, or by
// another tool whose plain name is spelled like it. The hash is then salted
// until the name is free.
func TestBuildNamesHashedNameTaken(t *testing.T) {
	pair := []Ref{{"s", "a.b"}, {"s", "a_b"}}
	first := names(t, buildNames(pair, nil), pair...)

	t.Run("reserved", func(t *testing.T) {
		tab := buildNames(pair, first)
		checkTable(t, tab, pair, first)
	})
	t.Run("by another tool", func(t *testing.T) {
		// A tool of server s whose plain name is first[0].
		squatter := Ref{"s", strings.TrimPrefix(first[0], "mcp__s__")}
		tools := append([]Ref{squatter}, pair...)
		tab := buildNames(tools, nil)
		checkTable(t, tab, tools, nil)
		if got := names(t, tab, squatter)[0]; got != first[0] {
			t.Errorf("the squatter is named %q, want its plain name %q", got, first[0])
		}
	})
	t.Run("a long name against a short one spelled like it", func(t *testing.T) {
		long := Ref{"s", strings.Repeat("l", 100)}
		short := Ref{"s", strings.TrimPrefix(Qualify(long.Server, long.Tool), "mcp__s__")}
		if Qualify(short.Server, short.Tool) != Qualify(long.Server, long.Tool) {
			t.Fatal("the test's two tools do not collide")
		}
		tools := []Ref{long, short}
		tab := buildNames(tools, nil)
		checkTable(t, tab, tools, nil)
		// Both end in a hash of their own names; the long one's is the
		// one it always had.
		got := names(t, tab, long, short)
		if got[0] != Qualify(long.Server, long.Tool) {
			t.Errorf("the long tool is named %q, want %q", got[0], Qualify(long.Server, long.Tool))
		}
		if !hashedForm.MatchString(got[1]) || got[1] == got[0] {
			t.Errorf("the short tool is named %q, want a hashed name other than %q", got[1], got[0])
		}
	})
}

func TestBuildNamesIgnoresOrder(t *testing.T) {
	var tools []Ref
	for _, s := range []string{"a", "a.", "a_", "A", "b"} {
		for _, tool := range []string{"x", "x.y", "x_y", "X_Y", "x y", "é", "_", strings.Repeat("z", 70)} {
			tools = append(tools, Ref{s, tool})
		}
	}
	tools = append(tools, Ref{"a__b", "c"}, Ref{"a", "b__c"})
	reserved := []string{"mcp__b__x", "mcp__A__X"}
	collect := func(tab *nameTable) map[Ref]string {
		m := map[Ref]string{}
		for name, ref := range tab.All() {
			m[ref] = name
		}
		return m
	}
	want := collect(buildNames(tools, reserved))
	checkTable(t, buildNames(tools, reserved), tools, reserved)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20 {
		shuffled := append([]Ref(nil), tools...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if diff := cmp.Diff(want, collect(buildNames(shuffled, reserved))); diff != "" {
			t.Fatalf("shuffle %d: names differ (-first +shuffled):\n%s", i, diff)
		}
	}
}

func TestBuildNamesDoesNotModifyInput(t *testing.T) {
	tools := []Ref{{"b", "y"}, {"a", "x"}, {"b", "y"}}
	before := append([]Ref(nil), tools...)
	buildNames(tools, nil)
	if diff := cmp.Diff(before, tools); diff != "" {
		t.Errorf("buildNames changed its input (-before +after):\n%s", diff)
	}
}

// Ten thousand tools, a fifth of them renamed, come out right; how fast is
// BenchmarkBuildNames's to say, not a timed test's.
func TestBuildNamesTenThousand(t *testing.T) {
	tools := manyTools(10000)
	tab := buildNames(tools, []string{"mcp__s0__tool_0"})
	checkTable(t, tab, tools, []string{"mcp__s0__tool_0"})
	if n := len(tab.Renames()); n != 2000 {
		t.Errorf("%d tools renamed, want 2000 (one of each colliding pair)", n)
	}
}

// manyTools returns n tools over 20 servers, in runs of ten per server; in
// each run two tools collide after normalization and one is long.
func manyTools(n int) []Ref {
	tools := make([]Ref, 0, n)
	for i := range n {
		server := fmt.Sprintf("s%d", i/10%20)
		var tool string
		switch i % 10 {
		case 0:
			tool = fmt.Sprintf("tool.%d", i/10)
		case 1:
			tool = fmt.Sprintf("tool_%d", i/10) // collides with case 0 on the same server
		case 2:
			tool = fmt.Sprintf("%s_%d", strings.Repeat("long", 20), i)
		default:
			tool = fmt.Sprintf("tool_%d", i)
		}
		tools = append(tools, Ref{server, tool})
	}
	return tools
}

func TestNilNameTable(t *testing.T) {
	var tab *nameTable
	if _, ok := tab.Lookup("mcp__s__t"); ok {
		t.Error("Lookup on a nil table found a tool")
	}
	if _, ok := tab.Name(Ref{"s", "t"}); ok {
		t.Error("Name on a nil table found a tool")
	}
	if tab.Len() != 0 || tab.Renames() != nil {
		t.Error("a nil table is not empty")
	}
	for name := range tab.All() {
		t.Errorf("All on a nil table yields %q", name)
	}
}

func TestLookupIsExact(t *testing.T) {
	tab := buildNames([]Ref{{"s", "Tool"}}, nil)
	for _, name := range []string{"mcp__s__tool", "mcp__s__Tool ", "mcp__s__", "s__Tool", ""} {
		if r, ok := tab.Lookup(name); ok {
			t.Errorf("Lookup(%q) = %v, want no tool", name, r)
		}
	}
}

func FuzzQualify(f *testing.F) {
	for _, s := range [][2]string{
		{"github", "create_issue"}, {"a.b", "c d"}, {"", ""}, {"日本", "🔥"},
		{"s", "\xff\xfe"}, {"s", strings.Repeat("t", 56)}, {"s", strings.Repeat("t", 57)},
		{strings.Repeat("é", 40), strings.Repeat("x", 40)},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, server, tool string) {
		got := Qualify(server, tool)
		if !validName.MatchString(got) {
			t.Fatalf("Qualify(%q, %q) = %q, not a valid tool name", server, tool, got)
		}
		if again := Qualify(server, tool); again != got {
			t.Fatalf("Qualify(%q, %q) gave %q, then %q", server, tool, got, again)
		}
		if !strings.HasPrefix(got, "mcp__") {
			t.Fatalf("Qualify(%q, %q) = %q, want the mcp__ prefix", server, tool, got)
		}
		plain := "mcp__" + server + "__" + tool
		if validName.MatchString(plain) && got != plain {
			t.Fatalf("Qualify(%q, %q) = %q, want it unchanged", server, tool, got)
		}
	})
}

func FuzzBuildNames(f *testing.F) {
	f.Add("s", "a.b", "s", "a_b", "mcp__s__x")
	f.Add("a__b", "c", "a", "b__c", "")
	f.Add("s", "Search", "s", "search", "MCP__S__SEARCH")
	f.Fuzz(func(t *testing.T, s1, t1, s2, t2, reserved string) {
		tools := []Ref{{s1, t1}, {s2, t2}, {s1, t2}, {s2, t1}}
		res := []string{reserved, Qualify(s1, t1)}
		tab := buildNames(tools, res)
		checkTable(t, tab, tools, res)
	})
}

func BenchmarkLookup(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			tab := buildNames(manyTools(n), nil)
			var all []string
			for name := range tab.All() {
				all = append(all, name)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, ok := tab.Lookup(all[i%len(all)]); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}

func BenchmarkBuildNames(b *testing.B) {
	tools := manyTools(10000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buildNames(tools, nil)
	}
}

func BenchmarkQualify(b *testing.B) {
	for _, tc := range []struct{ name, server, tool string }{
		{"short", "github", "create_issue"},
		{"unicode", "café", "naïve.tool"},
		{"long", "server", strings.Repeat("x", 200)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Qualify(tc.server, tc.tool)
			}
		})
	}
}
