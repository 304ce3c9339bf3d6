package transport

import (
	"fmt"
	"os"
	"os/exec"
)

// ourEnds are the ends of the server's pipes that stay with us.
type ourEnds struct{ stdin, stdout, stderr *os.File }

// startProcess starts the server on pipes of our own rather than
// cmd.StdinPipe and friends: files from os.Pipe take deadlines, and
// cmd.Wait does not wait on copying goroutines, so the exit is seen the
// moment it happens.
//
// reap waits for the process to exit, as cmd.Wait does, and then lets go
// of what started it (see startServer).
func startProcess(cfg StdioConfig, env []string) (cmd *exec.Cmd, ends ourEnds, reap func() error, err error) {
	cmd = exec.Command(cfg.Command, cfg.Args...)
	cmd.Env, cmd.Dir = env, cfg.Dir
	setGroup(cmd)
	var pipes [6]*os.File // stdin r, w; stdout r, w; stderr r, w
	for i := 0; i < len(pipes); i += 2 {
		if pipes[i], pipes[i+1], err = os.Pipe(); err != nil {
			closeFiles(pipes[:i]...)
			return nil, ourEnds{}, nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pipes[0], pipes[3], pipes[5]
	release, err := startServer(cmd)
	// The child has its own copies now. Ours would keep the pipes open after
	// it exits and hide the end of its output.
	closeFiles(pipes[0], pipes[3], pipes[5])
	if err != nil {
		closeFiles(pipes[1], pipes[2], pipes[4])
		return nil, ourEnds{}, nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	reap = func() error {
		defer release()
		return cmd.Wait()
	}
	return cmd, ourEnds{stdin: pipes[1], stdout: pipes[2], stderr: pipes[4]}, reap, nil
}

func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}
