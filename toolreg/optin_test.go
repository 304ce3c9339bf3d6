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
