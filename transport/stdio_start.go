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
func startProcess(cfg StdioConfig, env []string) (*exec.Cmd, ourEnds, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Env, cmd.Dir = env, cfg.Dir
	setGroup(cmd)
	var ends [6]*os.File // stdin r, w; stdout r, w; stderr r, w
	for i := 0; i < len(ends); i += 2 {
		var err error
		if ends[i], ends[i+1], err = os.Pipe(); err != nil {
			closeFiles(ends[:i]...)
			return nil, ourEnds{}, fmt.Errorf("starting %s: %w", cfg.Command, err)
		}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = ends[0], ends[3], ends[5]
	err := cmd.Start()
	// The child has its own copies now. Ours would keep the pipes open after
	// it exits and hide the end of its output.
	closeFiles(ends[0], ends[3], ends[5])
	if err != nil {
		closeFiles(ends[1], ends[2], ends[4])
		return nil, ourEnds{}, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	return cmd, ourEnds{stdin: ends[1], stdout: ends[2], stderr: ends[4]}, nil
}

func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}
