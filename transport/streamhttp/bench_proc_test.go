package streamhttp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/internal/testkit/childexit"
)

// The table benchmarks (bench_table_test.go) run the bench server in a
// process of its own, the test binary started again with
// benchServerEnv set: then this process's CPU time and allocations are
// the client's alone, and the server's CPU time is measured apart, by the
// server, from its own rusage. The two talk over the child's stdin and
// stdout, one line each way: the child first prints its address; then
// each "stats" line the parent sends is answered with the connections it
// has accepted and the CPU time it has used. The child exits when its
// stdin closes.

const benchServerEnv = "PLAINMCP_BENCH_SERVER"

// TestMain lets the test binary be a bench server (see above).
func TestMain(m *testing.M) {
	if spec := os.Getenv(benchServerEnv); spec != "" {
		childexit.Exit(serveBenchProcess(spec))
	}
	os.Exit(m.Run())
}

// serverStats is what the child reports.
type serverStats struct {
	Conns int64         // TCP connections accepted
	CPU   time.Duration // user + system time of the server process
}

// serveBenchProcess is the child: spec is a benchConfig in JSON.
func serveBenchProcess(spec string) int {
	var cfg benchConfig
	if err := json.Unmarshal([]byte(spec), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench server:", err)
		return 2
	}
	s := startBenchServer(cfg)
	defer s.srv.Close()
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, s.srv.Listener.Addr().String())
	out.Flush()
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		if in.Text() != "stats" {
			fmt.Fprintln(os.Stderr, "bench server: unknown command", in.Text())
			return 2
		}
		cpu, _ := processCPU()
		json.NewEncoder(out).Encode(serverStats{Conns: s.conns.Load(), CPU: cpu})
		out.Flush()
	}
	return 0
}

// procServer is the parent's handle on a bench server process.
type procServer struct {
	URL  string
	cmd  *exec.Cmd
	in   *os.File
	out  *bufio.Reader
	stop func()
}

// startProcServer starts a bench server process for the benchmark; it
// ends with the benchmark.
func startProcServer(b testing.TB, cfg benchConfig) *procServer {
	spec, _ := json.Marshal(cfg)
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), benchServerEnv+"="+string(spec))
	cmd.Stderr = os.Stderr
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	inR.Close()
	outW.Close()
	p := &procServer{cmd: cmd, in: inW, out: bufio.NewReader(outR)}
	p.stop = func() {
		inW.Close() // the child exits when its stdin ends
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		outR.Close()
	}
	b.Cleanup(p.stop)
	addr, err := p.readLine()
	if err != nil {
		b.Fatalf("bench server process: %v", err)
	}
	p.URL = "http://" + addr + "/mcp"
	return p
}

// readLine reads one line from the child, within 10 seconds.
func (p *procServer) readLine() (string, error) {
	type line struct {
		s   string
		err error
	}
	got := make(chan line, 1)
	go func() {
		s, err := p.out.ReadString('\n')
		got <- line{strings.TrimSpace(s), err}
	}()
	select {
	case l := <-got:
		return l.s, l.err
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill() // the read above ends with the child's stdout
		return "", errors.New("no answer from the bench server process in 10s")
	}
}

// stats asks the child for its counters.
func (p *procServer) stats(b testing.TB) serverStats {
	if _, err := p.in.WriteString("stats\n"); err != nil {
		b.Fatal(err)
	}
	line, err := p.readLine()
	var st serverStats
	if err == nil {
		err = json.Unmarshal([]byte(line), &st)
	}
	if err != nil {
		b.Fatalf("bench server stats: %v", err)
	}
	return st
}
