package mcpjson

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Claude Code rewrites ~/.claude.json often (it is its state file), and
// guards its saves with a lock: the directory ~/.claude.json.lock, made
// with mkdir (atomic, so one process at a time has it) and removed once
// the file is written. A lock whose directory has not been touched for
// 10 s was left by a process that died holding it, and is taken over.
// (That is the convention of the lock library Claude Code uses; its debug
// log names the lock it takes.) mcpjson takes the same lock around its
// own read, edit and write of the file.
//
// Claude Code writes even when it cannot have the lock, so the lock
// narrows the race but does not close it: editProject also reads the file
// again just before replacing it, and starts over if it changed.
type stateLock struct {
	stale time.Duration // a lock untouched this long is a dead holder's
	wait  time.Duration // how long to wait for a live holder
	poll  time.Duration // how often to look again meanwhile
}

// claudeLock is Claude Code's convention, and a wait that outlasts a
// dead holder's lock (so that one is taken over, not reported).
var claudeLock = stateLock{stale: 10 * time.Second, wait: 12 * time.Second, poll: 25 * time.Millisecond}

// errLockHeld is wrapped by the error of a lock that stayed held.
var errLockHeld = errors.New("mcpjson: lock held by another program")

// lockFile takes the lock of the file at path: path+".lock", and, if path
// is a symbolic link, also the lock beside the file it points to (Claude
// Code's lock library puts it there unless told otherwise). The locks are
// taken in that order, by every mcpjson writer, and released in reverse.
func (l stateLock) lockFile(ctx context.Context, path string) (release func(), err error) {
	paths := []string{path + ".lock"}
	if target, err := filepath.EvalSymlinks(path); err == nil && filepath.Clean(target) != filepath.Clean(path) {
		paths = append(paths, target+".lock")
	}
	var held []func()
	release = func() {
		for i := len(held) - 1; i >= 0; i-- {
			held[i]()
		}
	}
	for _, p := range paths {
		r, err := l.take(ctx, p)
		if err != nil {
			release()
			return nil, err
		}
		held = append(held, r)
	}
	return release, nil
}

// take makes the lock directory at path, waiting while a live holder has
// it (as long as ctx lets it, and at most l.wait), and taking over one a
// dead holder left.
func (l stateLock) take(ctx context.Context, path string) (release func(), err error) {
	give := time.Now().Add(l.wait)
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, context.Cause(ctx))
		}
		err := os.Mkdir(path, 0o700)
		if err == nil {
			return l.releaser(path), nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			return func() {}, nil // no folder, so no file to guard
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("taking the lock %s: %w", path, err)
		}
		if l.takeOver(path) {
			continue
		}
		if !time.Now().Before(give) {
			return nil, fmt.Errorf("%w: %s is held, and was still after %v (is Claude Code saving? if no Claude Code is running, remove that directory)",
				errLockHeld, path, l.wait)
		}
		t := time.NewTimer(l.poll)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}

// takeOver removes the lock at path if it is stale, and says whether it
// did: only then is it worth trying again at once. A lock that cannot be
// looked at (gone meanwhile, or a symbolic link to nothing, which mkdir
// still finds in its way) is waited for like a held one, within the
// bound: trying again at once could spin for good.
func (l stateLock) takeOver(path string) bool {
	st, err := os.Stat(path)
	if err != nil || !l.isStale(st) {
		return false
	}
	return l.removeStale(path, st)
}

// isStale reports whether a lock was last touched longer ago than l.stale.
func (l stateLock) isStale(st fs.FileInfo) bool {
	return time.Since(st.ModTime()) > l.stale
}

// removeStale removes the lock at path, which looked stale as st. It is
// first renamed aside, and removed only if what was moved is that lock
// and is stale still; otherwise it is put back: a fresh lock made
// meanwhile by a process that took the stale one over first (its
// directory may even have the stale one's inode number, freed and given
// again), or the stale one touched meanwhile by a holder that was only
// slow, is not ours to remove.
func (l stateLock) removeStale(path string, st fs.FileInfo) bool {
	aside := path + ".stale." + strconv.Itoa(os.Getpid())
	if os.Rename(path, aside) != nil {
		return false // someone else moved it, or it cannot be: look again after the poll
	}
	if moved, err := os.Stat(aside); err != nil || !os.SameFile(st, moved) || !l.isStale(moved) {
		os.Rename(aside, path)
		return false
	}
	os.Remove(aside)
	return true
}

// releaser removes the lock at path, if it is still the one made: a
// lock taken over by another process (ours having looked stale) is
// theirs.
func (l stateLock) releaser(path string) func() {
	made, err := os.Stat(path)
	return func() {
		// The inode number alone could be a lock made after ours was
		// taken over and removed; nobody touches ours, so its time holds.
		if now, serr := os.Stat(path); err == nil && serr == nil && os.SameFile(made, now) && made.ModTime().Equal(now.ModTime()) {
			os.Remove(path)
		}
	}
}
