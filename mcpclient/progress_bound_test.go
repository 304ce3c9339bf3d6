package mcpclient

import (
	"log/slog"
	"strings"
	"testing"
)

// A slow progress callback holds back at most maxPendingProgressBytes of
// updates (and maxPendingProgress of them): the oldest are dropped and the
// drop reported; each message is cut to maxProgressMessage.
func TestProgressBacklogIsBoundedByBytes(t *testing.T) {
	var logged strings.Builder
	var got []Progress
	w := &progressWatch{fn: func(p Progress) { got = append(got, p) }, wake: make(chan struct{}, 1),
		log: slog.New(slog.NewTextHandler(&logged, nil))}
	big := strings.Repeat("é", 1<<20) // 2 MiB per message, split mid-rune by the cut
	for i := 0; i < 300; i++ {
		w.progressed(Progress{Progress: float64(i), Message: big})
		if w.pendingBytes > maxPendingProgressBytes || len(w.pending) > maxPendingProgress {
			t.Fatalf("after %d updates: %d bytes, %d updates pending", i+1, w.pendingBytes, len(w.pending))
		}
	}
	for i := 0; i < 3*maxPendingProgress; i++ {
		w.progressed(Progress{Progress: float64(300 + i)})
	}
	w.deliver()
	if len(got) != maxPendingProgress || got[len(got)-1].Progress != float64(300+3*maxPendingProgress-1) {
		t.Fatalf("delivered %d, the last %v", len(got), got[len(got)-1])
	}
	if !strings.Contains(logged.String(), "dropped=") {
		t.Errorf("the drop was not reported: %q", logged.String())
	}
	w.progressed(Progress{Message: big})
	w.deliver()
	if m := got[len(got)-1].Message; len(m) > maxProgressMessage+len("…") || !strings.HasSuffix(m, "…") || !strings.HasPrefix(m, "é") {
		t.Errorf("a long message became %d bytes", len(m))
	}
}
