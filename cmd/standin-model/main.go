// Command standin-model is a stand-in for a model provider, for demos and
// tests that must run offline and without a key. It is not a model: it
// follows a short script, speaking the OpenAI Chat Completions wire over
// loopback, so that mcpc's real OpenAI adapter can be shown end to end.
//
//	standin-model [-addr 127.0.0.1:0] -- command args…
//
// It listens on addr, runs the command with OPENAI_BASE_URL pointing at
// itself and OPENAI_API_KEY empty (a real key must not go to a stand-in;
// a server on loopback needs none), and exits with the command's status.
// Its script, for each request:
//
//   - if the conversation's last turn holds tool results, it answers with
//     their text;
//   - else, if tools are offered, it calls one: a tool named …__add with
//     the first two numbers of the question, if it is offered and the
//     question has two numbers; else a tool named …__echo with the
//     question; and, in the same turn, a tool named …__log with the
//     question, if it is offered and the question says "log";
//   - else it answers "stand-in model: " and the last user text.
//
// Every answer names the model "standin-scripted".
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "where to listen (loopback)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: standin-model [-addr HOST:PORT] -- command args…")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, *addr, flag.Args()))
}

// run serves the script on addr while the command runs, and returns the
// command's exit status.
func run(ctx context.Context, addr string, command []string) int {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "standin-model:", err)
		return 1
	}
	srv := &http.Server{Handler: handler()}
	go srv.Serve(l)
	defer srv.Close()

	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	// The command gets no key: a real one must not go to a stand-in.
	cmd.Env = append(os.Environ(), "OPENAI_BASE_URL=http://"+l.Addr().String()+"/v1", "OPENAI_API_KEY=")
	if err := cmd.Run(); err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "standin-model:", err)
		return 1
	}
	return 0
}
