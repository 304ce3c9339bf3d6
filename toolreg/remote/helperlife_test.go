package remote

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport/streamhttp"
)

// roleEnv makes the test binary play a part in the helper life tests;
// pidsEnv names the file where each process of the part writes its pid.
const (
	roleEnv = "PLAINMCP_REMOTE_ROLE"
	pidsEnv = "PLAINMCP_REMOTE_PIDS"
)

// playRole plays one part, and returns its exit status:
//
//   - "stuck": a headersHelper that never prints and ignores SIGTERM;
//   - "stuck-parent": one that starts a stuck child first (a helper
//     script's curl);
//   - "host": a Go host running a stuck headersHelper, for the test to
//     kill meanwhile.
//
// No part lives longer than a minute, even if a test forgets it.
func playRole(role string) int {
	switch role {
	case "stuck", "stuck-parent":
		signal.Ignore(syscall.SIGTERM)
		if role == "stuck-parent" {
			child := exec.Command(os.Args[0])
			child.Env = append(os.Environ(), roleEnv+"=stuck")
			if child.Start() != nil {
				return 1
			}
		}
		f, err := os.OpenFile(os.Getenv(pidsEnv), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return 1
		}
		fmt.Fprintf(f, "%d\n", os.Getpid())
		f.Close()
		time.Sleep(time.Minute)
	case "host":
		os.Setenv(roleEnv, "stuck") // the helper inherits the environment
		var hc streamhttp.Config
		addHelperHeaders(context.Background(), &toolreg.ServerConfig{Name: "web", URL: "http://127.0.0.1:1/", HeadersHelper: secret.New(os.Args[0])}, &hc)
	}
	return 0
}
