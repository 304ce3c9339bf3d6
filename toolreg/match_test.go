package toolreg

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"read_file", "read_file", true},
		{"read_file", "read_files", false},
		{"read_file", "Read_file", false}, // case-sensitive
		{"", "", true},
		{"", "x", false},
		{"*", "", true},
		{"*", "anything at all", true},
		{"**", "x", true},
		{"read_*", "read_file", true},
		{"read_*", "read_", true},
		{"read_*", "write_file", false},
		{"*_file", "read_file", true},
		{"*_file", "read_files", false},
		{"get_*_by_id", "get_user_by_id", true},
		{"get_*_by_id", "get__by_id", true},
		{"get_*_by_id", "get_by_id", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "acb", false},
		{"*a*", "bab", true},
		{"*a*", "bbb", false},
		{"a*a", "a", false}, // the two a's cannot overlap
		{"a*a", "aa", true},
		{"ab*ba", "aba", false},
		{"ab*ba", "abba", true},
		{"*ab", "abab", true},
		{"x*ab*ab", "xabab", true},
		{"x*ab*ab", "xab", false},
		// Nothing but '*' is special.
		{"fs.read", "fs.read", true},
		{"fs.read", "fs_read", false},
		{"?", "?", true},
		{"?", "x", false},
		{"[ab]", "[ab]", true},
		{"[ab]", "a", false},
		{`a\*`, `a\anything`, true},
		{`a\*`, `a*`, false}, // a backslash does not escape the star
		{"a/*", "a/b/c", true},
		{"files/*/read", "files/x/y/read", true},
		{"é*", "éclair", true},
		{"*🔥", "fire🔥", true},
	} {
		if got := matchGlob(tc.pattern, tc.name); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestToolFilter(t *testing.T) {
	for _, tc := range []struct {
		name   string
		filter ToolFilter
		permit []string
		refuse []string
	}{
		{
			name:   "zero filter permits all",
			permit: []string{"read_file", "", "*"},
		},
		{
			name:   "allow only",
			filter: ToolFilter{Allow: []string{"read_file", "list_*"}},
			permit: []string{"read_file", "list_dir", "list_"},
			refuse: []string{"write_file", "read_files", "xlist_dir"},
		},
		{
			name:   "deny only",
			filter: ToolFilter{Deny: []string{"delete_*", "*_admin", "exec"}},
			permit: []string{"read_file", "execute", "admin"},
			refuse: []string{"delete_repo", "user_admin", "exec"},
		},
		{
			name:   "deny wins over allow",
			filter: ToolFilter{Allow: []string{"*"}, Deny: []string{"*write*"}},
			permit: []string{"read_file"},
			refuse: []string{"write_file", "overwrite", "write"},
		},
		{
			name:   "exact allow and a glob deny",
			filter: ToolFilter{Allow: []string{"git_push", "git_status"}, Deny: []string{"*push*"}},
			permit: []string{"git_status"},
			refuse: []string{"git_push", "git_log"},
		},
		{
			name:   "empty allow entry allows only the empty name",
			filter: ToolFilter{Allow: []string{""}},
			permit: []string{""},
			refuse: []string{"x"},
		},
		{
			name:   "literal special characters",
			filter: ToolFilter{Allow: []string{"fs.read", "a/b", "[x]", `c\d`, "q?"}},
			permit: []string{"fs.read", "a/b", "[x]", `c\d`, "q?"},
			refuse: []string{"fs_read", "fsXread", "x", `c\\d`, "qq"},
		},
		{
			name:   "deny everything",
			filter: ToolFilter{Deny: []string{"*"}},
			refuse: []string{"", "read_file"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, tool := range tc.permit {
				if !tc.filter.Permits(tool) {
					t.Errorf("%+v refuses %q, want it permitted", tc.filter, tool)
				}
			}
			for _, tool := range tc.refuse {
				if tc.filter.Permits(tool) {
					t.Errorf("%+v permits %q, want it refused", tc.filter, tool)
				}
			}
		})
	}
}

// FuzzMatchGlob checks matchGlob against a regular expression built from
// the same pattern: each piece quoted, '*' as (?s:.*).
func FuzzMatchGlob(f *testing.F) {
	for _, s := range [][2]string{
		{"a*b*c", "axbyc"}, {"*", ""}, {"ab*ba", "aba"}, {"x*ab*ab", "xabab"},
		{"[a]*", "[a]x"}, {`\*`, `\x`}, {"**a**", "bab"}, {"é*🔥", "éx🔥"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if !utf8.ValidString(pattern) || !utf8.ValidString(name) {
			return // regexp reads invalid UTF-8 as U+FFFD; matchGlob compares bytes
		}
		pieces := strings.Split(pattern, "*")
		for i, p := range pieces {
			pieces[i] = regexp.QuoteMeta(p)
		}
		re := regexp.MustCompile(`^(?s:` + strings.Join(pieces, ".*") + `)$`)
		if got, want := matchGlob(pattern, name), re.MatchString(name); got != want {
			t.Fatalf("matchGlob(%q, %q) = %v, want %v", pattern, name, got, want)
		}
	})
}

func BenchmarkPermits(b *testing.B) {
	f := ToolFilter{
		Allow: []string{"read_*", "list_*", "get_*_by_id", "search"},
		Deny:  []string{"*_admin", "*delete*"},
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f.Permits("get_user_by_id")
	}
}
