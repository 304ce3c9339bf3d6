package task

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode"
)

// FuzzParseTask feeds what a server may send as a task (either era's
// shape) to the checks that take it in: whatever passes has a usable id,
// a known status and bounded durations, and is polled within the bounds.
func FuzzParseTask(f *testing.F) {
	for _, s := range []string{
		legacyTask("t1", "working", ""),
		modernTask("m1", "input_required", `,"inputRequests":{"a":{"method":"roots/list"}}`),
		`{"taskId":"x","status":"completed","ttl":null,"pollInterval":-5,"result":{"content":[]}}`,
		`{"taskId":"x\u0000","status":"failed","ttlMs":1e300,"error":{"code":-32603,"message":"m"}}`,
		`{"task":{"taskId":"x","status":"working"}}`, `{}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var w taskWire
		if json.Unmarshal(raw, &w) != nil {
			return
		}
		d, err := parseTask("tasks/get", &w)
		if err != nil {
			return
		}
		task := d.task
		if task.ID == "" || len(task.ID) > maxTaskIDLen || strings.ContainsFunc(task.ID, unicode.IsControl) {
			t.Fatalf("accepted task id %q", task.ID)
		}
		if task.TTL < 0 || task.PollInterval < 0 {
			t.Fatalf("negative durations: %+v", task)
		}
		dr := &taskDriver{st: &sessionTasks{}, task: task}
		if p := dr.pollDelay(); p < 100e6 || p > 30e9 {
			t.Fatalf("polls every %v", p)
		}
	})
}
