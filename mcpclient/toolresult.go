package mcpclient

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/internal/rpcwire"
)

// objectOrEmpty is a tool call's arguments as sent: nil, a nil map or
// pointer, and a JSON null all become {} — servers built on the
// TypeScript SDK reject "arguments": null.
func objectOrEmpty(args any) any {
	switch a := args.(type) {
	case nil:
		return json.RawMessage("{}")
	case json.RawMessage:
		if t := strings.TrimSpace(string(a)); t == "" || t == "null" {
			return json.RawMessage("{}")
		}
		return a
	}
	v := reflect.ValueOf(args)
	switch v.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		if v.IsNil() {
			return json.RawMessage("{}")
		}
	}
	return args
}

// hasMember reports whether the JSON object raw has the member key.
func hasMember(raw json.RawMessage, key string) bool {
	found := false
	rpcwire.Members(raw, func(k []byte, _, _ int) bool {
		found = string(k) == strconv.Quote(key)
		return !found
	})
	return found
}

// describeResult says in a few words what a result that should have been
// a tool result was: a task, or an object with these members.
func describeResult(raw json.RawMessage) string {
	if hasMember(raw, "task") {
		return "a task (CreateTaskResult), which the call did not ask for; the task may still run at the server"
	}
	var keys []string
	err := rpcwire.Members(raw, func(k []byte, _, _ int) bool {
		keys = append(keys, truncate(strings.Trim(string(k), `"`), 40))
		return len(keys) < 8
	})
	if err != nil {
		return "not a JSON object"
	}
	if len(keys) == 0 {
		return "an empty object"
	}
	return "an object with " + strconv.Quote(strings.Join(keys, ", "))
}
