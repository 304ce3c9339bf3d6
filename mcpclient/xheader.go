package mcpclient

import (
	"sync"

	"github.com/plainmcp/plainmcp/internal/paramheader"
)

// toolHeaders remembers, per tool, the headers its calls carry. On the
// 2026-07-28 HTTP wire a tool's input schema may ask for its arguments to
// be mirrored into Mcp-Param headers (package paramheader reads the
// annotations); tools/list records each listed tool's, and CallTool sends
// them.
type toolHeaders struct {
	mu    sync.Mutex
	tools map[string][]paramheader.Header
	// repeatable holds the tools annotated read-only or idempotent, whose
	// call a lost response may re-issue (Options.RepeatSafeTools).
	repeatable map[string]bool
}

// maxRememberedTools bounds each of toolHeaders' maps: the server names
// the tools, and a server that lists new ones on every listing must not
// grow them without end. Past it, another tool is forgotten to make room
// (until it is listed again, its call goes without its headers and is
// not re-issued on a lost response).
const maxRememberedTools = 50000

// remember sets m[key] to v if keep, else forgets key, within
// maxRememberedTools keys.
func remember[V any](m map[string]V, key string, v V, keep bool) {
	if !keep {
		delete(m, key)
		return
	}
	if _, ok := m[key]; !ok && len(m) >= maxRememberedTools {
		for k := range m {
			delete(m, k)
			break
		}
	}
	m[key] = v
}

func (t *toolHeaders) setRepeatable(tool string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.repeatable == nil {
		t.repeatable = map[string]bool{}
	}
	remember(t.repeatable, tool, true, ok)
}

func (t *toolHeaders) isRepeatable(tool string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.repeatable[tool]
}

func (t *toolHeaders) set(tool string, h []paramheader.Header) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tools == nil {
		t.tools = map[string][]paramheader.Header{}
	}
	remember(t.tools, tool, h, len(h) > 0)
}

func (t *toolHeaders) get(tool string) []paramheader.Header {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tools[tool]
}
