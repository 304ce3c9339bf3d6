package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/demoserver"
	"github.com/plainmcp/plainmcp/internal/demoserver/pages"
	"github.com/plainmcp/plainmcp/jsonrpc"
	"github.com/plainmcp/plainmcp/toolreg"
	"github.com/plainmcp/plainmcp/transport"
)

// demoFlags are the demo server's flags in mcpc's tests: those of
// mcp-demo-server, and a few that make it misbehave.
type demoFlags struct {
	opts       demoserver.Options
	tamper     bool   // serve a demo-tour SKILL.md its listing does not describe
	pidFile    string // write the process id here
	stubborn   bool   // stay a minute after stdin ends, as some servers do
	deafToTerm bool   // ignore SIGTERM, and SIGPIPE as node does: a write to a closed stdout fails and kills nothing
	hang       bool   // read requests and answer none
	deaf       bool   // never answer server/discover, as some handshake-era servers do
	withPages  bool   // offer the visit tool
	speaks     string // answer initialize with this version, whatever was asked
}

func parseDemoFlags(args []string) (*demoFlags, error) {
	d := &demoFlags{}
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&d.opts.PageSize, "page-size", 0, "")
	fs.IntVar(&d.opts.ExtraTools, "extra-tools", 0, "")
	fs.StringVar(&d.opts.Instructions, "instructions", "", "")
	fs.BoolVar(&d.opts.Stateless, "stateless", false, "")
	fs.DurationVar(&d.opts.Tick, "tick", 0, "")
	fs.BoolVar(&d.tamper, "tamper-skill", false, "")
	fs.StringVar(&d.pidFile, "pid-file", "", "")
	fs.BoolVar(&d.stubborn, "ignore-eof", false, "")
	fs.BoolVar(&d.deafToTerm, "ignore-term", false, "")
	fs.BoolVar(&d.hang, "hang", false, "")
	fs.BoolVar(&d.deaf, "ignore-discover", false, "")
	fs.BoolVar(&d.withPages, "pages", false, "")
	fs.StringVar(&d.speaks, "speaks", "", "")
	return d, fs.Parse(args)
}

// needsProcess says whether the flags test the process itself.
func (d *demoFlags) needsProcess() bool {
	return d.pidFile != "" || d.stubborn || d.hang || d.deafToTerm
}

// serve serves the demo server on stream until it ends.
func (d *demoFlags) serve(stream jsonrpc.Stream) error {
	if d.tamper {
		d.opts.Skills = demoserver.DemoSkills()
		md := d.opts.Skills[0].Files["SKILL.md"]
		d.opts.Skills[0].Served = map[string]string{"SKILL.md": strings.Replace(md, "echo", "ECHO", 1)}
	}
	if d.withPages {
		p := &pages.Server{}
		defer p.Close()
		d.opts.VisitPage = p.Page
	}
	if d.deaf {
		stream = deafStream{stream}
	}
	if d.speaks != "" {
		stream = olderStream{stream, d.speaks}
	}
	return demoserver.New(&d.opts).Serve(context.Background(), stream)
}

// serveDemo is the test binary run as a demo server (see demoEnv).
func serveDemo(args []string) int {
	d, err := parseDemoFlags(args)
	if err != nil {
		return 2
	}
	if d.hang {
		io.Copy(io.Discard, os.Stdin)
		return 0
	}
	if d.deafToTerm {
		signal.Ignore(syscall.SIGTERM, syscall.SIGPIPE)
	}
	if d.pidFile != "" {
		os.WriteFile(d.pidFile, []byte(strconv.Itoa(os.Getpid())), 0o600)
	}
	if d.stubborn {
		defer time.Sleep(time.Minute) // the subject: a server that outlives its stdin's end
	}
	if d.serve(transport.NewLineStream(os.Stdin, os.Stdout, nil)) != nil {
		return 1
	}
	return 0
}

// deafStream drops server/discover requests unanswered.
type deafStream struct{ jsonrpc.Stream }

func (d deafStream) Read() ([]byte, error) {
	for {
		frame, err := d.Stream.Read()
		if err != nil || !bytes.Contains(frame, []byte(`"server/discover"`)) {
			return frame, err
		}
	}
}

// olderStream makes the server answer initialize with version, as a
// server that speaks no newer one does: the version the client asks for
// is replaced before the server reads it.
type olderStream struct {
	jsonrpc.Stream
	version string
}

func (o olderStream) Read() ([]byte, error) {
	frame, err := o.Stream.Read()
	if err != nil || !bytes.Contains(frame, []byte(`"method":"initialize"`)) {
		return frame, err
	}
	var msg map[string]any
	if json.Unmarshal(frame, &msg) != nil {
		return frame, nil
	}
	if params, ok := msg["params"].(map[string]any); ok {
		params["protocolVersion"] = o.version
	}
	return json.Marshal(msg)
}

// demoInProcess is a cli.serve that serves the demo servers of demoEntry in
// this test's process, over an in-memory pipe, unless their flags test the
// process itself (needsProcess). The servers must have ended when the test
// does.
func demoInProcess(t *testing.T) func(*toolreg.ServerConfig) jsonrpc.Stream {
	exe := testBinary(t)
	var wg sync.WaitGroup
	t.Cleanup(func() {
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("an in-process demo server outlived the test")
		}
	})
	return func(sc *toolreg.ServerConfig) jsonrpc.Stream {
		if sc.Command != exe || sc.Env[demoEnv].Reveal() != "1" {
			return nil
		}
		d, err := parseDemoFlags(sc.Args)
		if err != nil || d.needsProcess() {
			return nil
		}
		client, server := transport.Pipe()
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer server.Close()
			d.serve(server)
		}()
		return client
	}
}
