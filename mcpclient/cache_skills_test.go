package mcpclient

import (
	"testing"
)

// Skills are resources: a stateless server's resources/list_changed
// drops the cached skills/list pages (read through ListPage, as package
// mcpclient/skill reads them) with the resources' own, so a host that
// lists again after the notice sees the new skills; tools/list_changed
// leaves them cached.
func TestResourcesListChangedForgetsCachedSkills(t *testing.T) {
	f := modernServer(t)
	f.Result("skills/list", `{"skills":[],"ttlMs":60000}`)
	changed := make(chan string, 2)
	s := connect(t, f, &Options{OnListChanged: func(kind string) { changed <- kind }})
	list := func() {
		t.Helper()
		var page struct {
			Skills []any `json:"skills"`
		}
		if err := s.ListPage(ctx5s(t), "skills/list", "", &page); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		notice string // "" for none
		want   int    // skills/list requests the server has seen after listing again
	}{
		{"", 1},
		{"", 1}, // from the cache
		{"tools", 1},
		{"resources", 2},
		{"", 2},
	} {
		if step.notice != "" {
			f.Conn.Notify(ctx5s(t), "notifications/"+step.notice+"/list_changed", nil)
			<-changed // the hook runs once the cached pages are gone
		}
		list()
		if got := f.Count("skills/list"); got != step.want {
			t.Fatalf("after %q: %d skills/list requests, want %d", step.notice, got, step.want)
		}
	}
}
