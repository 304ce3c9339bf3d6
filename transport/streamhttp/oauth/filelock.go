package oauth

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// staleLock is the age past which a lock file is taken to be left by a
// process that died holding it. A holder keeps it for a refresh and a
// save, which refreshTimeout bounds well below.
const staleLock = 30 * time.Second

// heldKey marks a context whose holder holds the FileStore's lock.
type heldKey struct{ f *FileStore }

// Lock implements [Locker]: it takes the lock file (one for the whole
// file, whatever the key). Save, Delete and SaveClient under the context
// it returns do not take it again.
func (f *FileStore) Lock(ctx context.Context, key string) (context.Context, func(), error) {
	unlock, err := f.acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	return context.WithValue(ctx, heldKey{f}, true), unlock, nil
}

// acquire takes the lock within the process, then the lock file, unless
// ctx's holder has them.
func (f *FileStore) acquire(ctx context.Context) (func(), error) {
	if held, _ := ctx.Value(heldKey{f}).(bool); held {
		return func() {}, nil
	}
	unlock, err := f.lock.lock(ctx)
	if err != nil {
		return nil, fmt.Errorf("oauth: waiting for the token file's lock: %w", err)
	}
	release, err := lockFile(ctx, f.Path+".lock")
	if err != nil {
		unlock()
		return nil, err
	}
	return func() { release(); unlock() }, nil
}

// lockFile creates path exclusively, waiting while another process holds
// it (as long as ctx lets it, and at most twice staleLock), and taking it
// over once it is older than staleLock. O_EXCL creation is atomic on
// every system Go runs on, local file systems and NFS v3 and later alike.
func lockFile(ctx context.Context, path string) (release func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	give := time.Now().Add(2 * staleLock)
	wait := 5 * time.Millisecond
	for {
		fh, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			fh.WriteString(strconv.Itoa(os.Getpid()))
			fh.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("oauth: taking the token file's lock: %w", err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > staleLock {
			// Its holder died. Moved aside first, so that of two
			// processes that find it stale one takes it over.
			aside := path + ".stale-" + strconv.Itoa(os.Getpid())
			if os.Rename(path, aside) == nil {
				os.Remove(aside)
			}
			continue
		}
		if time.Now().After(give) {
			return nil, fmt.Errorf("oauth: the token file's lock %s stays taken", path)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("oauth: waiting for the token file's lock: %w", context.Cause(ctx))
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// slicesSortByRegistered sorts cs newest first.
func slicesSortByRegistered(cs []fileClient) {
	slices.SortFunc(cs, func(a, b fileClient) int { return b.Registered.Compare(a.Registered) })
}
