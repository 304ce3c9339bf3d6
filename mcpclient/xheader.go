package mcpclient

import (
	"sync"

	"github.com/plainmcp/plainmcp/mcpclient/internal/paramheader"
)

// toolHeaders remembers, per tool, the headers its calls carry. On the
// 2026-07-28 HTTP wire a tool's input schema may ask for its arguments to
// be mirrored into Mcp-Param headers (package paramheader reads the
// annotations); ListTools records each listed tool's, and CallTool sends
// them.
type toolHeaders struct {
	mu    sync.Mutex
	tools map[string][]paramheader.Header
	// repeatable holds the tools annotated read-only or idempotent, whose
	// call a lost response may re-issue (Options.RepeatSafeTools).
	repeatable map[string]bool
}

func (t *toolHeaders) setRepeatable(tool string, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.repeatable == nil {
		t.repeatable = map[string]bool{}
	}
	if ok {
		t.repeatable[tool] = true
	} else {
		delete(t.repeatable, tool)
	}
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
	t.tools[tool] = h
}

func (t *toolHeaders) get(tool string) []paramheader.Header {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tools[tool]
}
