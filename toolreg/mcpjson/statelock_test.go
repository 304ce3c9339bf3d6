package mcpjson

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// approveEdit is SaveApproval's edit of a project entry, for name, for
// tests that drive editProject itself.
func approveEdit(name string, meanwhile func(attempt int)) func([]jsonMember) ([]jsonMember, error) {
	attempt := 0
	return func(entry []jsonMember) ([]jsonMember, error) {
		attempt++
		if meanwhile != nil {
			meanwhile(attempt)
		}
		return setMember(entry, "enabledMcpjsonServers", encodeJSON([]string{name})), nil
	}
}

// Claude Code writing the file between our read and our write (it does
// when it cannot have the lock) loses nothing: its change is kept, and
// ours is made again on what it wrote.
func TestEditKeepsAChangeWrittenMeanwhile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, claudeJSON)
	theirs := strings.Replace(claudeJSON, `"numStartups": 7`, `"numStartups": 8`, 1)
	edit := approveEdit("d", func(attempt int) {
		if attempt == 1 {
			write(t, path, theirs)
		}
	})
	if err := editProject(context.Background(), claudeLock, path, "/src/app", true, edit); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"numStartups": 8`) {
		t.Errorf("the change written meanwhile is lost:\n%s", data)
	}
	if a, err := ReadApprovals(path, "", "/src/app"); err != nil || a.State("d") != Approved {
		t.Errorf("our answer: %+v, %v", a, err)
	}
}

// A file that changes under every attempt is given up on, with an error
// that says so, and the other writer's last version stays.
func TestEditGivesUpOnAFileThatKeepsChanging(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, claudeJSON)
	var last string
	edit := approveEdit("d", func(attempt int) {
		last = strings.Replace(claudeJSON, `"numStartups": 7`, fmt.Sprintf(`"numStartups": %d`, 100+attempt), 1)
		write(t, path, last)
	})
	err := editProject(context.Background(), claudeLock, path, "/src/app", true, edit)
	if !errors.Is(err, errChangedMeanwhile) {
		t.Fatalf("err = %v, want errChangedMeanwhile", err)
	}
	if data, _ := os.ReadFile(path); string(data) != last {
		t.Errorf("the file is not the other writer's:\n%s", data)
	}
}

// A file that cannot be read as a JSON object — one Claude Code is
// writing in place (empty, cut short), or not an object — is never
// replaced.
func TestEditNeverReplacesAFileItCannotRead(t *testing.T) {
	for _, content := range []string{"", "\n", claudeJSON[:200], "[]", `{"projects": {}} x`} {
		path := filepath.Join(t.TempDir(), ".claude.json")
		write(t, path, content)
		if err := SaveApproval(context.Background(), path, "/src/app", "d", true); err == nil {
			t.Errorf("%q: no error", content)
		}
		if data, _ := os.ReadFile(path); string(data) != content {
			t.Errorf("%q was replaced by %q", content, data)
		}
	}
}

// The edit happens under Claude Code's lock: the directory beside the
// file, and beside the file a symbolic link names; both are gone after.
func TestSaveApprovalHoldsClaudeCodesLock(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "claude.json")
	os.MkdirAll(filepath.Dir(target), 0o700)
	write(t, target, claudeJSON)
	link := filepath.Join(dir, ".claude.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	locks := []string{link + ".lock", target + ".lock"}
	edit := approveEdit("d", func(int) {
		for _, l := range locks {
			if st, err := os.Stat(l); err != nil || !st.IsDir() {
				t.Errorf("%s is not held during the edit (%v)", l, err)
			}
		}
	})
	if err := editProject(context.Background(), claudeLock, link, "/src/app", true, edit); err != nil {
		t.Fatal(err)
	}
	for _, l := range locks {
		if _, err := os.Stat(l); err == nil {
			t.Errorf("%s is left behind", l)
		}
	}
}

// A lock another program holds is waited for, within bounds: past them
// the error names the lock, and nothing is written or removed.
func TestSaveApprovalDoesNotWriteUnderAnotherHoldersLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, claudeJSON)
	if err := os.Mkdir(path+".lock", 0o700); err != nil {
		t.Fatal(err)
	}
	noWait := stateLock{stale: claudeLock.stale, poll: time.Millisecond}
	err := editProject(context.Background(), noWait, path, "/src/app", true, approveEdit("d", nil))
	if !errors.Is(err, errLockHeld) || !strings.Contains(err.Error(), path+".lock") {
		t.Errorf("err = %v, want errLockHeld naming the lock", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := SaveApproval(ctx, path, "/src/app", "d", true); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != claudeJSON {
		t.Errorf("written under another's lock:\n%s", data)
	}
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Errorf("another's lock was removed: %v", err)
	}
}

// A lock left by a holder that died (untouched for longer than Claude
// Code's 10 s) is taken over.
func TestSaveApprovalTakesOverAStaleLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, claudeJSON)
	lock := path + ".lock"
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	if err := SaveApproval(context.Background(), path, "/src/app", "d", true); err != nil {
		t.Fatal(err)
	}
	if a, _ := ReadApprovals(path, "", "/src/app"); a.State("d") != Approved {
		t.Error("not saved")
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// Writers racing on one file lose no answer: each is saved.
func TestRacingSavesLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, claudeJSON)
	const writers, each = 4, 8
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if err := SaveApproval(context.Background(), path, "/src/app", fmt.Sprintf("s%d-%d", w, i), true); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	a, err := ReadApprovals(path, "", "/src/app")
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + writers*each; len(a.Enabled) != want {
		t.Errorf("%d answers kept, want %d", len(a.Enabled), want)
	}
}

// A lock path mkdir finds in its way but stat cannot look at (a symbolic
// link to nothing) is waited for within the bound and reported, never
// tried again at once for good: take spun on it, ignoring its bound.
func TestLockThatCannotBeLookedAtIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	write(t, path, claudeJSON)
	if err := os.Symlink(filepath.Join(filepath.Dir(path), "nowhere"), path+".lock"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	noWait := stateLock{stale: claudeLock.stale, poll: time.Millisecond}
	done := make(chan error, 1)
	go func() {
		done <- editProject(context.Background(), noWait, path, "/src/app", true, approveEdit("d", nil))
	}()
	select {
	case err := <-done:
		if !errors.Is(err, errLockHeld) {
			t.Errorf("err = %v, want errLockHeld", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("taking the lock spins past its bound") // the goroutine spins on; the test binary ends
	}
	if data, _ := os.ReadFile(path); string(data) != claudeJSON {
		t.Errorf("written without the lock:\n%s", data)
	}
}

// A lock that looked stale but was touched before it could be removed
// (its holder was slow, not dead) is put back, not removed.
func TestStaleLockTouchedMeanwhileIsKept(t *testing.T) {
	lock := filepath.Join(t.TempDir(), ".claude.json.lock")
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	os.Chtimes(lock, old, old)
	st, err := os.Stat(lock)
	if err != nil || !claudeLock.isStale(st) {
		t.Fatalf("the lock is not stale: %v", err)
	}
	now := time.Now()
	os.Chtimes(lock, now, now) // the holder touches it
	if claudeLock.removeStale(lock, st) {
		t.Error("removeStale reports a lock its holder touched as taken over")
	}
	if st, err := os.Stat(lock); err != nil || !st.IsDir() {
		t.Errorf("the holder's lock is gone: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Dir(lock)); len(entries) != 1 {
		t.Errorf("left in the folder: %v", entries)
	}
}

// A lock of ours that another process took over (we looked dead) and
// removed is not removed when we let go of it, even when the lock now
// there has our directory's inode number again.
func TestReleaseLeavesALockMadeAfterOurs(t *testing.T) {
	lock := filepath.Join(t.TempDir(), ".claude.json.lock")
	if err := os.Mkdir(lock, 0o700); err != nil {
		t.Fatal(err)
	}
	release := claudeLock.releaser(lock)
	later := time.Now().Add(time.Second) // the other's lock, made later
	os.Chtimes(lock, later, later)       // stands for theirs with our inode number
	release()
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("their lock was removed: %v", err)
	}
}
