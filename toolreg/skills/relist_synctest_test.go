//go:build go1.25

package skills_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/plainmcp/plainmcp/internal/testkit/memdemo"
	"github.com/plainmcp/plainmcp/toolreg/skills"
)

// A server's skills are listed again after it says its resources changed
// (skills are resources and have no notification of their own), and only
// then: another kind's change keeps the cached listing.
func TestSkillsRelistedWhenResourcesChange(t *testing.T) {
	synctest.Test(t, testSkillsRelisted)
}

func testSkillsRelisted(t *testing.T) {
	m := &memdemo.Servers{}
	r := newInMemory(t, m, "demo")
	ctx := context.Background()
	list := func(want int64) {
		t.Helper()
		if listed, err := skills.List(ctx, r); err != nil || len(listed) == 0 {
			t.Fatalf("List = %d skills, %v", len(listed), err)
		}
		if n := m.Sent("demo", "skills/list"); n != want {
			t.Errorf("skills/list sent %d times, want %d", n, want)
		}
	}
	list(1)
	list(1)
	m.Notify(t, "demo", "notifications/tools/list_changed")
	synctest.Wait() // the notification is in and handled
	list(1)
	m.Notify(t, "demo", "notifications/resources/list_changed")
	synctest.Wait()
	list(2)
	list(2)
}
