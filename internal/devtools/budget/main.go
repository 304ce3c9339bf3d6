// Command budget holds plainmcp's code to the budgets of its style guide:
// a function of at most 60 lines and a cyclomatic complexity of at most
// 15. Files have no length budget: a file holds one idea, however long,
// and a type's methods live in one file or in a few files with one idea
// each (the session's calls, its lists, its handlers) — a rule for review,
// which a line count only taught to break ideas in two. What exceeds a budget today is
// listed, by name, in a checked-in allow-list; anything over budget that the
// list does not name fails, and so does a listed one that grew past the
// measure recorded beside it, and a listed entry that no longer exceeds
// its budget — take it off, so the list only shrinks.
//
// Usage, from the module root:
//
//	go run ./internal/devtools/budget -allow scripts/budget.allow
//	go run ./internal/devtools/budget -allow scripts/budget.allow -prune   (drop entries back within budget)
//
// Complexity is counted as gocyclo does: one, plus one for each if, for,
// range, case and select case (default excluded), && and ||. Function
// literals count toward the function that holds them.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// The budgets.
const (
	maxFuncLines = 60
	maxCyclo     = 15
)

func main() {
	allow := flag.String("allow", "", "the allow-list to check against")
	write := flag.String("write", "", "write the current excesses as the allow-list to this file")
	prune := flag.Bool("prune", false, "with -allow: take entries back within budget off the list (adds nothing)")
	flag.Parse()
	excesses, err := measureTree(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "budget:", err)
		os.Exit(2)
	}
	if *write != "" {
		if err := writeList(*write, excesses); err != nil {
			fmt.Fprintln(os.Stderr, "budget:", err)
			os.Exit(2)
		}
		fmt.Printf("budget: %d entries written to %s\n", len(excesses), *write)
		return
	}
	listed, err := readList(*allow)
	if err != nil {
		fmt.Fprintln(os.Stderr, "budget:", err)
		os.Exit(2)
	}
	if *prune {
		var kept []excess
		for _, e := range excesses {
			if was, ok := listed[e.key()]; ok {
				e.measure = min(e.measure, was) // never raised: growth still fails
				kept = append(kept, e)
			}
		}
		if err := writeList(*allow, kept); err != nil {
			fmt.Fprintln(os.Stderr, "budget:", err)
			os.Exit(2)
		}
		listed, _ = readList(*allow)
	}
	problems := compare(excesses, listed)
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "budget:", p)
	}
	fmt.Fprintf(os.Stderr, "budget: %s\n", summary(excesses))
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// compare returns each excess missing from the list, each listed one that
// grew past its recorded measure, and each listed entry that is no longer
// an excess.
func compare(excesses []excess, listed map[string]int) []string {
	var problems []string
	seen := map[string]bool{}
	for _, e := range excesses {
		seen[e.key()] = true
		was, ok := listed[e.key()]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s is over its budget and not in the allow-list", e))
		case was > 0 && e.measure > was:
			problems = append(problems, fmt.Sprintf("%s: grew from %d, its allow-list entry; bring it down", e, was))
		}
	}
	var stale []string
	for key := range listed {
		if !seen[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, key := range stale {
		problems = append(problems, fmt.Sprintf("%s is within its budget now: take it off the allow-list", key))
	}
	return problems
}

func summary(excesses []excess) string {
	counts := map[string]int{}
	for _, e := range excesses {
		counts[e.kind]++
	}
	return fmt.Sprintf("%d functions over %d lines, %d over complexity %d",
		counts[kindFunc], maxFuncLines, counts[kindCyclo], maxCyclo)
}

// readList reads an allow-list: one "kind path [name] measure" entry per
// line (a missing measure is not checked), # comments.
func readList(path string) (map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	listed := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
			continue
		case (fields[0] == kindFunc || fields[0] == kindCyclo) && len(fields) >= 3:
			listed[strings.Join(fields[:3], " ")] = measureOf(fields[3:])
		default:
			return nil, fmt.Errorf("%s:%d: want \"func|complexity PATH NAME\"", path, n)
		}
	}
	return listed, sc.Err()
}

// measureOf is the recorded measure that may follow an entry, or 0.
func measureOf(rest []string) int {
	if len(rest) == 0 {
		return 0
	}
	n, _ := strconv.Atoi(rest[0])
	return n
}

func writeList(path string, excesses []excess) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "# Code over its budget (functions > %d lines, complexity > %d; files have no\n", maxFuncLines, maxCyclo)
	fmt.Fprintln(w, "# length budget: a file holds one idea, and a type's methods live in one file or a")
	fmt.Fprintln(w, "# few files with one idea each),")
	fmt.Fprintln(w, "# checked by `make check` (internal/devtools/budget). This list only shrinks: nothing")
	fmt.Fprintln(w, "# new goes over budget, and an entry back within it must be taken off.")
	for _, e := range excesses {
		fmt.Fprintln(w, e.line())
	}
	return closeAll(w, f)
}

func closeAll(w *bufio.Writer, c io.Closer) error {
	if err := w.Flush(); err != nil {
		c.Close()
		return err
	}
	return c.Close()
}

func slash(path string) string { return filepath.ToSlash(path) }
