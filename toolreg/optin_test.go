package toolreg

import (
	"testing"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// The registry turns on no extension the host did not ask for: tasks come
// only with the host's Options.Session.Tasks, so a host that never set it
// links none of mcpclient/task (make check: examples/stdiohost).
func TestRegistryOptsInToNoTasks(t *testing.T) {
	for _, base := range []*mcpclient.Options{nil, {}} {
		s := &server{r: &Registry{opts: Options{Session: base}}, cfg: &ServerConfig{Name: "a"}}
		if got := s.sessionOptions().Tasks; got != nil {
			t.Errorf("Session %+v: the registry set Tasks to %T", base, got)
		}
	}
}

// Nor does it declare the skills extension for a host that did not ask:
// listing and loading skills is toolreg/skills', which a host opts in to
// (mcpc sets Options.Session.Skills), and a host that asked keeps it.
func TestRegistryDeclaresSkillsOnlyWhenAsked(t *testing.T) {
	for _, tc := range []struct {
		base *mcpclient.Options
		want bool
	}{{nil, false}, {&mcpclient.Options{}, false}, {&mcpclient.Options{Skills: true}, true}} {
		s := &server{r: &Registry{opts: Options{Session: tc.base}}, cfg: &ServerConfig{Name: "a"}}
		if got := s.sessionOptions().Skills; got != tc.want {
			t.Errorf("Session %+v: Skills %v, want %v", tc.base, got, tc.want)
		}
	}
}
