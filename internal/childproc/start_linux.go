package childproc

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// On Linux a server dies with its host however the host dies (killed,
// crashed, exited without Close): it is started with a parent-death
// signal, SIGKILL (prctl PR_SET_PDEATHSIG). The kernel sends that signal
// when the *thread* that started the child exits, not the process; the Go
// runtime ends a thread whenever a goroutine locked to it returns, so a
// child started from an ordinary goroutine could be killed at any moment
// by an unrelated goroutine's exit. So every server is started by one
// goroutine locked to its thread, the spawner, which the runtime never
// ends while the spawner runs. It runs while any server it started has
// not been reaped, and returns (unlocking its thread first) once none is
// left: one thread for all the servers, none held by a host that runs
// none, and no goroutine left over after the last Close.
//
// The signal reaches the server alone: it is not inherited across fork,
// so what the server started (node under npx) outlives a killed host
// unless it exits when its stdin ends, which happens as the host dies.

// spawner is the state of the spawner goroutine, shared by every Stdio
// of the process because the thread is the process's.
var spawner struct {
	mu   sync.Mutex
	reqs chan spawnRequest // nil when the spawner does not run
	live int               // the processes it started that are not reaped yet
}

// spawnRequest asks the spawner to start cmd and send Start's error to done.
type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// startLinked starts cmd with a parent-death signal, from the spawner's
// thread. Once cmd has been reaped, the caller calls release.
func startLinked(cmd *exec.Cmd) (release func(), err error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	spawner.mu.Lock()
	if spawner.reqs == nil {
		spawner.reqs = make(chan spawnRequest)
		go spawn(spawner.reqs)
	}
	spawner.live++ // the spawner cannot stop before this request is served
	reqs := spawner.reqs
	spawner.mu.Unlock()

	done := make(chan error, 1)
	reqs <- spawnRequest{cmd, done}
	if err := <-done; err != nil {
		releaseSpawner()
		return nil, err
	}
	return sync.OnceFunc(releaseSpawner), nil
}

// releaseSpawner notes that a process the spawner started was reaped,
// and stops the spawner when none is left.
func releaseSpawner() {
	spawner.mu.Lock()
	defer spawner.mu.Unlock()
	if spawner.live--; spawner.live == 0 {
		close(spawner.reqs)
		spawner.reqs = nil
	}
}

// spawn starts the processes asked of it, on one OS thread, until reqs is
// closed: then none of them runs any more, and the thread may go back to
// the runtime.
func spawn(reqs <-chan spawnRequest) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for r := range reqs {
		r.done <- r.cmd.Start()
	}
}

// Spawner reports the children started and not yet released, and whether
// the spawner goroutine runs: for the tests of the packages that start
// children, which check that it stops with the last one.
func Spawner() (live int, running bool) {
	spawner.mu.Lock()
	defer spawner.mu.Unlock()
	return spawner.live, spawner.reqs != nil
}
