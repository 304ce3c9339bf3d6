package main

import (
	"context"
	"fmt"
	"strings"
)

// A Row is one scenario run: a client scenario of one suite version, either
// at the wire the suite picks for it, or at a spec revision's wire as part of
// that revision's requirement set.
type Row struct {
	Suite  string // suite label, "0.1" or "0.2"
	Spec   string // "" for the suite's default wire, else the revision, "2026-07-28"
	Name   string // the scenario as the suite names it, "auth/metadata-default"
	Scored bool   // false for what a requirement set runs but does not score
}

// Scenario is the row's name in reports: the suite's name, prefixed by the
// revision for requirement-set rows ("2026-07-28/tools_call").
func (r Row) Scenario() string {
	if r.Spec != "" {
		return r.Spec + "/" + r.Name
	}
	return r.Name
}

// ID names the row in the baseline: "0.2/2026-07-28/tools_call".
func (r Row) ID() string { return r.Suite + "/" + r.Scenario() }

// listRows asks a suite for its client scenarios (`list --client`), and, when
// it ships the requirement set of spec, for the client scenarios that set runs
// (`list --requirements spec`).
func listRows(ctx context.Context, n *Node, s Suite, spec string) ([]Row, error) {
	out, err := n.output(ctx, s, "list", "--client")
	if err != nil {
		return nil, err
	}
	names := parseList(out)
	if len(names) == 0 {
		return nil, fmt.Errorf("conformance %s list --client named no client scenario", s.Label)
	}
	var rows []Row
	for _, name := range names {
		rows = append(rows, Row{Suite: s.Label, Name: name, Scored: true})
	}
	if spec == "" || !s.hasRequirements(spec) {
		return rows, nil
	}
	out, err = n.output(ctx, s, "list", "--client", "--requirements", spec)
	if err != nil {
		return nil, err
	}
	scored, unscored := parseRequirements(out)
	if len(scored) == 0 {
		return nil, fmt.Errorf("conformance %s list --requirements %s named no client scenario", s.Label, spec)
	}
	for _, name := range scored {
		rows = append(rows, Row{Suite: s.Label, Spec: spec, Name: name, Scored: true})
	}
	for _, name := range unscored {
		rows = append(rows, Row{Suite: s.Label, Spec: spec, Name: name})
	}
	return rows, nil
}

// The section titles of the suite's list output.
const (
	clientSection   = "Client scenarios"
	notScoredTitle  = "Run and reported, but never scored"
	clientLegMarker = "[client]"
)

// parseList reads `list --client`: a "Client scenarios …:" title, then one
// "  - name [versions]" line per scenario.
func parseList(out string) []string {
	scored, _ := parseRequirements(out)
	return scored
}

// parseRequirements reads `list --requirements REV`: the client scenarios the
// revision scores, listed like parseList's, then those it runs without
// scoring, as "    - name [client]" lines under the never-scored title.
func parseRequirements(out string) (scored, unscored []string) {
	section := ""
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, " ") {
			section = line // a title: "Client scenarios (test against a client):"
			continue
		}
		item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue // a reason heading inside the never-scored section
		}
		fields := strings.Fields(item)
		if len(fields) == 0 {
			continue
		}
		switch {
		case strings.HasPrefix(section, clientSection):
			scored = append(scored, fields[0])
		case strings.HasPrefix(section, notScoredTitle) && len(fields) > 1 && fields[1] == clientLegMarker:
			unscored = append(unscored, fields[0])
		}
	}
	return scored, unscored
}
