package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The check statuses the suite writes. Anything else (INFO, SKIPPED, …)
// counts as "other" and neither passes nor fails a scenario.
const (
	statusSuccess = "SUCCESS"
	statusFailure = "FAILURE"
	statusWarning = "WARNING"
)

// A Check is one entry of a scenario's checks.json.
type Check struct {
	ID           string `json:"id"`
	Name         string `json:"name,omitempty"`
	Description  string `json:"description,omitempty"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// parseChecks decodes checks.json, which is a JSON array of checks.
func parseChecks(data []byte) ([]Check, error) {
	var checks []Check
	if err := json.Unmarshal(data, &checks); err != nil {
		return nil, fmt.Errorf("checks.json: %w", err)
	}
	for i, c := range checks {
		if c.Status == "" {
			return nil, fmt.Errorf("checks.json: check %d (%q) has no status", i, c.ID)
		}
	}
	return checks, nil
}

// Counts tallies checks by status.
type Counts struct {
	Success int `json:"success"`
	Failure int `json:"failure"`
	Warning int `json:"warning"`
	Other   int `json:"other"`
}

func count(checks []Check) Counts {
	var n Counts
	for _, c := range checks {
		switch c.Status {
		case statusSuccess:
			n.Success++
		case statusFailure:
			n.Failure++
		case statusWarning:
			n.Warning++
		default:
			n.Other++
		}
	}
	return n
}

// A Run is what happened to the processes of one scenario run, as far as the
// checks do not tell.
type Run struct {
	Err          error // the suite could not run, or left no checks.json
	Skipped      bool  // the suite declined the scenario at the requested wire
	TimedOut     bool  // the suite killed the client at its timeout
	ClientExit   int   // the client's exit code
	ErrorAllowed bool  // the scenario accepts a client that exits non-zero
	SuiteExit    int   // the suite CLI's own exit code
}

// judge applies the pass rule: at least one SUCCESS, no FAILURE, no WARNING,
// no timeout, and a clean client exit unless the scenario allows an error.
// A scenario with no check at all ("PASSED 0/0") fails. The suite's exit code
// is checked last, so a disagreement with its own verdict shows up as a
// failure too. It returns the reasons a scenario failed, most telling first.
func judge(checks []Check, run Run) (pass bool, reasons []string) {
	if run.Err != nil {
		return false, []string{run.Err.Error()}
	}
	if run.Skipped {
		return false, []string{"skipped by the suite"}
	}
	n := count(checks)
	if ids := idsWith(checks, statusFailure); len(ids) > 0 {
		reasons = append(reasons, "FAILURE "+ids)
	}
	if ids := idsWith(checks, statusWarning); len(ids) > 0 {
		reasons = append(reasons, "WARNING "+ids)
	}
	if n.Success == 0 && len(reasons) == 0 {
		if len(checks) == 0 {
			reasons = append(reasons, "no check ran (PASSED 0/0)")
		} else {
			reasons = append(reasons, "no SUCCESS, only "+statuses(checks))
		}
	}
	if run.TimedOut {
		reasons = append(reasons, "client timed out")
	} else if run.ClientExit != 0 && !run.ErrorAllowed {
		reasons = append(reasons, fmt.Sprintf("client exit %d", run.ClientExit))
	}
	if len(reasons) == 0 && run.SuiteExit != 0 {
		reasons = append(reasons, fmt.Sprintf("suite exit %d", run.SuiteExit))
	}
	return len(reasons) == 0, reasons
}

// idsWith lists the distinct ids of the checks with a status.
func idsWith(checks []Check, status string) string {
	var ids []string
	seen := map[string]bool{}
	for _, c := range checks {
		if c.Status == status && !seen[c.ID] {
			seen[c.ID] = true
			ids = append(ids, c.ID)
		}
	}
	return strings.Join(ids, ",")
}

// statuses lists the distinct statuses of checks, in order.
func statuses(checks []Check) string {
	var out []string
	seen := map[string]bool{}
	for _, c := range checks {
		if !seen[c.Status] {
			seen[c.Status] = true
			out = append(out, c.Status)
		}
	}
	return strings.Join(out, ",")
}
