package toolreg

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/plainmcp/plainmcp/mcpclient"
)

func rankedNames(tools []Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return out
}

func TestSearchTools(t *testing.T) {
	r := newInMemory(t, &inMemory{}, nil, "a", "b")
	ctx := context.Background()
	for _, tc := range []struct {
		query string
		limit int
		want  []string
	}{
		{"sum of two numbers", 1, []string{"mcp__a__add"}},
		{"repeat back my text", 2, []string{"mcp__a__echo", "mcp__b__echo"}},
		{"select:mcp__b__echo, mcp__a__add,mcp__a__nope", 5, []string{"mcp__b__echo", "mcp__a__add"}},
		{"select:mcp__b__echo,mcp__a__add", 1, []string{"mcp__b__echo"}},
		{"qqqzzz", 5, nil},
	} {
		got, err := r.SearchTools(ctx, tc.query, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, rankedNames(got)); diff != "" {
			t.Errorf("SearchTools(%q, %d) (-want +got):\n%s", tc.query, tc.limit, diff)
		}
	}
	got, _ := r.SearchTools(ctx, "number", 0)
	if len(got) == 0 || len(got) > defaultSearchLimit {
		t.Errorf("limit 0 gave %d tools, want 1 to %d", len(got), defaultSearchLimit)
	}
}

// TestSearchFollowsListChanges checks that the index takes in a server's
// new listing (list_changed, Add, Remove) and builds the segments of the
// other servers no more.
func TestSearchFollowsListChanges(t *testing.T) {
	// The registry marks the listing stale, then calls this.
	changed := make(chan string, 1)
	onChange := &mcpclient.Options{OnListChanged: func(kind string) {
		select {
		case changed <- kind:
		default:
		}
	}}
	r := newInMemory(t, &inMemory{}, &Options{Session: onChange}, "a", "b")
	ctx := context.Background()
	search := func(q string) []string {
		t.Helper()
		got, err := r.SearchTools(ctx, q, 3)
		if err != nil {
			t.Fatal(err)
		}
		return rankedNames(got)
	}
	if got := search("dynamic"); slices.Contains(got, "mcp__a__dynamic") {
		t.Fatalf("before the change: %q", got)
	}
	segB := r.search.ix.Segment("b")
	if _, err := r.Call(ctx, "mcp__a__change", nil); err != nil {
		t.Fatal(err)
	}
	<-changed
	if got := search("dynamic"); len(got) == 0 || got[0] != "mcp__a__dynamic" {
		t.Errorf("after a's list changed: %q, want mcp__a__dynamic first", got)
	}
	if r.search.ix.Segment("b") != segB {
		t.Error("b's segment was built again when only a's listing changed")
	}
	if err := r.Remove("a"); err != nil {
		t.Fatal(err)
	}
	if got := search("dynamic"); slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, "mcp__a__") }) {
		t.Errorf("after Remove(a): %q", got)
	}
	if err := r.Add(ctx, &ServerConfig{Name: "c", Type: "memory"}); err != nil {
		t.Fatal(err)
	}
	if got := search("sum numbers"); !cmp.Equal(got[:2], []string{"mcp__b__add", "mcp__c__add"}) {
		t.Errorf("after Add(c): %q", got)
	}
	if r.search.ix.Segment("a") != nil || r.search.ix.Segment("b") != segB {
		t.Error("the index kept a removed server, or built b's segment again")
	}
}
