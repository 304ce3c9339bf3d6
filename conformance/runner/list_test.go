package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseList(t *testing.T) {
	out := `Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - auth/metadata-default [2025-11-25,2026-07-28]
  - auth/dpop [extension]
  - bare
`
	want := []string{"initialize", "auth/metadata-default", "auth/dpop", "bare"}
	if diff := cmp.Diff(want, parseList(out)); diff != "" {
		t.Errorf("scenarios (-want +got):\n%s", diff)
	}
}

func TestParseRequirements(t *testing.T) {
	out := `Required for 2026-07-28 (5 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-stateless
  - tools-list

Client scenarios (test against a client):
  - tools_call
  - auth/metadata-default

Run and reported, but never scored:
  extension (2):
    - auth/dpop [client]
    - tasks-lifecycle [server]
  added-after-release (1):
    - json-schema-2020-12-preservation [client]
`
	scored, unscored := parseRequirements(out)
	if diff := cmp.Diff([]string{"tools_call", "auth/metadata-default"}, scored); diff != "" {
		t.Errorf("scored (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"auth/dpop", "json-schema-2020-12-preservation"}, unscored); diff != "" {
		t.Errorf("unscored (-want +got):\n%s", diff)
	}
}

func TestRowNames(t *testing.T) {
	for _, tc := range []struct {
		row      Row
		scenario string
		id       string
	}{
		{Row{Suite: "0.1", Name: "initialize"}, "initialize", "0.1/initialize"},
		{Row{Suite: "0.2", Name: "auth/dpop"}, "auth/dpop", "0.2/auth/dpop"},
		{Row{Suite: "0.2", Spec: "2026-07-28", Name: "tools_call"}, "2026-07-28/tools_call", "0.2/2026-07-28/tools_call"},
	} {
		if got := tc.row.Scenario(); got != tc.scenario {
			t.Errorf("%+v: got scenario %q, want %q", tc.row, got, tc.scenario)
		}
		if got := tc.row.ID(); got != tc.id {
			t.Errorf("%+v: got id %q, want %q", tc.row, got, tc.id)
		}
	}
}

func TestSelectRows(t *testing.T) {
	rows := []Row{
		{Suite: "0.1", Name: "initialize"},
		{Suite: "0.1", Name: "tools_call"},
		{Suite: "0.2", Name: "tools_call"},
		{Suite: "0.2", Spec: "2026-07-28", Name: "tools_call"},
	}
	for _, tc := range []struct {
		name, suite, only string
		want              []string // ids
		wantErr           bool
	}{
		{name: "everything", want: []string{"0.1/initialize", "0.1/tools_call", "0.2/tools_call", "0.2/2026-07-28/tools_call"}},
		{name: "a suite", suite: "0.2", want: []string{"0.2/tools_call", "0.2/2026-07-28/tools_call"}},
		{name: "a name, every wire", only: "tools_call", want: []string{"0.1/tools_call", "0.2/tools_call", "0.2/2026-07-28/tools_call"}},
		{name: "a revision row", only: "2026-07-28/tools_call", want: []string{"0.2/2026-07-28/tools_call"}},
		{name: "ids, spaced", only: "0.1/initialize, 0.2/tools_call", want: []string{"0.1/initialize", "0.2/tools_call"}},
		{name: "suite and name", suite: "0.1", only: "tools_call", want: []string{"0.1/tools_call"}},
		{name: "unknown name", only: "tools_call,nope", wantErr: true},
		{name: "unknown suite", suite: "9.9", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := selectRows(rows, tc.suite, tc.only)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("got %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got {
				ids = append(ids, r.ID())
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}
