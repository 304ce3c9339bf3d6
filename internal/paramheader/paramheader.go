// Package paramheader reads the x-mcp-header annotations of a tool's input
// schema and builds the headers a call carries from them.
//
// On the 2026-07-28 HTTP wire a tool's input schema may mark a parameter
// with "x-mcp-header": "Region", asking the client to mirror the argument
// into an Mcp-Param-Region header so gateways can route on it without
// reading the body. The client must check every such annotation and leave
// out of its listings any tool whose annotations break the rules (Of
// reports why); for the tools it keeps, each call sends the headers that
// Values builds from the call's arguments.
package paramheader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Header is one annotated parameter: the header's name part (Region for
// Mcp-Param-Region) and the chain of property names leading from the
// arguments object to its value.
type Header struct {
	Name string
	Path []string
}

// Of finds the x-mcp-header annotations of an input schema and
// checks them: a non-empty HTTP token, unique regardless of case, on a
// string, integer or boolean property reached from the root through
// "properties" alone.
func Of(schema json.RawMessage) ([]Header, error) {
	if !bytes.Contains(schema, []byte("x-mcp-header")) {
		return nil, nil // the common case: nothing to check
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	w := &headerWalk{seen: map[string]bool{}}
	if err := w.walk(root, nil, true); err != nil {
		return nil, err
	}
	return w.found, nil
}

// headerWalk is Of's walk over a schema: the annotations
// found, and their names folded to lower case.
type headerWalk struct {
	found []Header
	seen  map[string]bool
}

// walk visits v, at path from the root; reachable says whether the root
// reaches it through "properties" alone.
func (w *headerWalk) walk(v any, path []string, reachable bool) error {
	switch n := v.(type) {
	case []any:
		for _, e := range n {
			if err := w.walk(e, path, false); err != nil {
				return err
			}
		}
	case map[string]any:
		for key, val := range n {
			if err := w.member(n, key, val, path, reachable); err != nil {
				return err
			}
		}
	}
	return nil
}

// member visits one member of a schema object.
func (w *headerWalk) member(schema map[string]any, key string, val any, path []string, reachable bool) error {
	switch key {
	case "x-mcp-header":
		h, err := checkAnnotation(schema, val, path, reachable)
		if err != nil {
			return err
		}
		if w.seen[strings.ToLower(h.Name)] {
			return fmt.Errorf("x-mcp-header %q is used twice", h.Name)
		}
		w.seen[strings.ToLower(h.Name)] = true
		w.found = append(w.found, h)
	case "properties":
		props, ok := val.(map[string]any)
		if !ok {
			return w.walk(val, path, false)
		}
		for name, sub := range props {
			if err := w.walk(sub, append(path[:len(path):len(path)], name), reachable); err != nil {
				return err
			}
		}
	default:
		return w.walk(val, path, false)
	}
	return nil
}

// checkAnnotation checks one x-mcp-header value on the schema that has it.
func checkAnnotation(schema map[string]any, val any, path []string, reachable bool) (Header, error) {
	name, ok := val.(string)
	where := strings.Join(path, ".")
	switch {
	case !ok:
		return Header{}, fmt.Errorf("x-mcp-header at %q is not a string", where)
	case !reachable || len(path) == 0:
		return Header{}, fmt.Errorf("x-mcp-header %q is not on a property reached through properties alone", name)
	case !isToken(name):
		return Header{}, fmt.Errorf("x-mcp-header %q at %q is not an HTTP header name token", name, where)
	}
	switch schema["type"] {
	case "string", "integer", "boolean":
	default:
		return Header{}, fmt.Errorf("x-mcp-header %q is on %q, whose type %v is not string, integer or boolean", name, where, schema["type"])
	}
	return Header{Name: name, Path: path}, nil
}

// isToken reports whether s is a non-empty RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

// Values builds the Mcp-Param headers for a call, from its
// params as encoded (the arguments are read, never encoded again). An
// argument that is absent or null sends no header.
func Values(specs []Header, params []byte) (map[string]string, error) {
	if len(specs) == 0 || params == nil {
		return nil, nil
	}
	var p struct {
		Arguments map[string]json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, err
	}
	if p.Arguments == nil {
		return nil, nil
	}
	h := make(map[string]string, len(specs))
	for _, spec := range specs {
		if s, ok := headerValue(lookup(p.Arguments, spec.Path)); ok {
			h["Mcp-Param-"+spec.Name] = s // the transport encodes what a header cannot carry
		}
	}
	return h, nil
}

// lookup follows path through nested objects to the value at its end,
// as written, or nil.
func lookup(obj map[string]json.RawMessage, path []string) json.RawMessage {
	for i, name := range path {
		raw, ok := obj[name]
		if !ok || i == len(path)-1 {
			return raw
		}
		obj = nil
		if json.Unmarshal(raw, &obj) != nil {
			return nil
		}
	}
	return nil
}

// headerValue is the text a header carries for a value: a string's
// text, an integer as written but normalized (so -0 is 0), any other
// number as written, true or false. Null, absent, objects and arrays
// send nothing.
func headerValue(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		var s string
		return s, json.Unmarshal(raw, &s) == nil
	case 't', 'f':
		return string(raw), true
	case 'n', '{', '[':
		return "", false
	}
	s := string(raw)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		s = strconv.FormatInt(i, 10)
	}
	return s, true
}
