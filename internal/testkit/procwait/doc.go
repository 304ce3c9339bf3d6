// Package procwait is a test helper shared by plainmcp's packages: it waits
// for a process that is not our child (a server's grandchild, a server
// mcpc started) to end, which os.Process.Wait cannot do. On Linux the
// kernel says when (a pidfd becomes readable as the process exits), so a
// test waits on that event, not on a polling loop; elsewhere it polls.
//
// A zombie counts as ended: it has stopped running, and reaping it is its
// parent's job (for an orphan, init's).
package procwait

import "errors"

// ErrRunning is what Ended returns for a process still running when the
// wait was over.
var ErrRunning = errors.New("procwait: the process is still running")
