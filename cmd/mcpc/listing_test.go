package main

import (
	"encoding/json"
	"testing"
)

func TestToolArgs(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"b":{},"a":{}},"required":["a"]}`, "b?, a"},
		{`{"type":"object"}`, ""},
		{``, ""},
		{`not json`, ""},
		{`{"properties":{"\u0061x":{}},"required":["ax"]}`, "ax"},
		{`{"properties":{"1":{},"2":{},"3":{},"4":{},"5":{},"6":{},"7":{},"8":{},"9":{}}}`, "1?, 2?, 3?, 4?, 5?, 6?, 7?, 8?, …"},
	} {
		if got := toolArgs(json.RawMessage(tc.schema)); got != tc.want {
			t.Errorf("toolArgs(%s) = %q, want %q", tc.schema, got, tc.want)
		}
	}
}

func TestClipKeepsWordsWhole(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"Adds two numbers; the sum comes as text", 24, "Adds two numbers..."},
		{"Supercalifragilistic expialidocious", 12, "Supercali..."},
	} {
		if got := clip(tc.s, tc.n); got != tc.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
