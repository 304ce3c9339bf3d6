package bridge

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		value string
		min   time.Duration
		max   time.Duration
		ok    bool
	}{
		{"7", 7 * time.Second, 7 * time.Second, true},
		{"0", 0, 0, true},
		{time.Now().Add(90 * time.Second).UTC().Format(http.TimeFormat), 80 * time.Second, 91 * time.Second, true},
		{time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat), 0, 0, true},
		{"-3", 0, 0, false},
		{"soon", 0, 0, false},
		{"", 0, 0, false},
	} {
		h := http.Header{}
		if tc.value != "" {
			h.Set("Retry-After", tc.value)
		}
		d, ok := retryAfter(h)
		if ok != tc.ok || d < tc.min || d > tc.max {
			t.Errorf("Retry-After %q: got %v %v, want %v between %v and %v", tc.value, d, ok, tc.ok, tc.min, tc.max)
		}
	}
}

// A body past the limit is an error, never a quietly cut body that might
// still parse.
func TestLimitedReader(t *testing.T) {
	if _, err := io.ReadAll(&limitedReader{r: strings.NewReader(strings.Repeat("x", 20)), n: 10}); err == nil {
		t.Error("20 bytes under a limit of 10: got no error")
	}
	data, err := io.ReadAll(&limitedReader{r: strings.NewReader(strings.Repeat("x", 10)), n: 10})
	if err != nil || len(data) != 10 {
		t.Errorf("10 bytes under a limit of 10: got %d bytes, %v", len(data), err)
	}
}
