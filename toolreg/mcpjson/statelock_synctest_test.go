//go:build go1.25

package mcpjson

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
)

// holdLock makes the lock at path as Claude Code's lock library does and,
// while live is open, touches it every 5 s as that library does for a
// holder still running.
func holdLock(t *testing.T, path string, live chan struct{}) {
	t.Helper()
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	touch := func() { now := time.Now(); os.Chtimes(path, now, now) }
	touch() // the bubble's clock, not the file system's
	go func() {
		for {
			select {
			case <-live:
				return
			case <-time.After(5 * time.Second):
				touch()
			}
		}
	}()
}

// SaveApproval waits while a live holder has the lock, and writes once it
// lets go; a holder that keeps it past the wait is an error, and one that
// died (its lock untouched for 10 s) is taken over.
func TestSaveApprovalWaitsForTheLock(t *testing.T) {
	for _, tc := range []struct {
		name    string
		release time.Duration // when the live holder lets go; 0 never
		dies    bool          // the holder stops touching its lock at once
		want    error
	}{
		{"released after 3s", 3 * time.Second, false, nil},
		{"held on", 0, false, errLockHeld},
		{"holder died", 0, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), ".claude.json")
				write(t, path, claudeJSON)
				live := make(chan struct{})
				holdLock(t, path+".lock", live)
				if tc.dies {
					close(live)
				} else {
					defer close(live)
				}
				if tc.release > 0 {
					time.AfterFunc(tc.release, func() { os.Remove(path + ".lock") })
				}
				start := time.Now()
				err := SaveApproval(context.Background(), path, "/src/app", "d", true)
				if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				saved := false
				if a, _ := ReadApprovals(path, "", "/src/app"); a.State("d") == Approved {
					saved = true
				}
				if saved != (tc.want == nil) {
					t.Errorf("saved = %v after %v", saved, time.Since(start))
				}
				if tc.release > 0 && time.Since(start) < tc.release {
					t.Errorf("written after %v, before the holder let go", time.Since(start))
				}
			})
		})
	}
}
