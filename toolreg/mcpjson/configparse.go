package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/plainmcp/plainmcp/internal/errtype"

	"github.com/plainmcp/plainmcp/internal/logging"

	"github.com/plainmcp/plainmcp/secret"
)

// configParser holds what every part of one file's parse needs.
type configParser struct {
	source  string
	at      string // where in the file the servers are, if not at the top: projects["/src/app"].mcpServers
	env     func(string) (string, bool)
	safeEnv bool           // the default of SafeEnv
	log     logging.Logger // nil is silent
}

// errorf makes an ErrConfig error located at the file, the place of the
// servers in it (if not the top), the server (if any) and the key (if
// any).
func (p *configParser) errorf(server, key, format string, args ...any) error {
	var loc []string
	if p.source != "" {
		loc = append(loc, p.source)
	}
	if p.at != "" {
		loc = append(loc, p.at)
	}
	if server != "" {
		loc = append(loc, "server "+strconv.Quote(server))
	}
	if key != "" {
		loc = append(loc, key)
	}
	loc = append(loc, fmt.Sprintf(format, args...))
	return &ConfigError{Source: p.source, Server: server, Key: key, msg: strings.Join(loc, ": ")}
}

// jsonError describes a JSON syntax error by line and column.
func jsonError(data []byte, err error) string {
	var se *json.SyntaxError
	if !errtype.As(err, &se) {
		return "invalid JSON: " + err.Error()
	}
	// Offset counts the bytes read, the bad one included.
	before := data[:max(0, min(int(se.Offset)-1, len(data)))]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, se.Error())
}

// server parses, expands and checks the server called name.
func (p *configParser) server(name string, raw json.RawMessage) (*ServerConfig, error) {
	if name == "" {
		return nil, p.errorf("", "", `server "": want a non-empty name`)
	}
	if strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, p.errorf(name, "", "want a name without control characters")
	}
	fields, ok := objectFields(raw)
	if !ok {
		return nil, p.errorf(name, "", "want an object")
	}
	e := &entry{p: p, s: &ServerConfig{Name: name, Type: "stdio", Source: p.source}, given: map[string]bool{}, inherit: true}
	for _, step := range []func() error{
		func() error { return e.decode(fields) },
		e.settle,
		e.expand,
		e.finish,
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return e.s, nil
}

// decode reads every member of the entry through its key's decoder,
// keeping the keys plainmcp does not read in Extra.
func (e *entry) decode(fields []jsonMember) error {
	seen := map[string]bool{}
	for _, f := range fields {
		dec, known := serverKeys[f.key]
		if !known {
			if e.s.Extra == nil {
				e.s.Extra = map[string]json.RawMessage{}
			}
			e.s.Extra[f.key] = f.val // a repeated key: the last one, as encoding/json does
			continue
		}
		if seen[f.key] {
			return e.fail(f.key, "appears twice")
		}
		seen[f.key] = true
		if isJSONNull(f.val) {
			continue
		}
		e.given[f.key] = true
		if err := dec(e, f.key, f.val); errors.Is(err, ErrConfig) {
			return err
		} else if err != nil {
			return e.fail(f.key, "%v", err)
		}
	}
	return nil
}

// settle decides what depends on the keys together: the type of an entry
// with "transport" (type's synonym, which must agree with a type given) or
// with a url and no type, the environment it inherits, its OAuth config.
func (e *entry) settle() error {
	s := e.s
	if err := e.settleTransport(); err != nil {
		return err
	}
	// A url and no type is read as an http server, which is what its
	// author meant; Claude Code, whose default type is stdio, skips such
	// an entry, so the log says to write the type.
	if e.given["url"] && !e.given["type"] && !e.given["transport"] && !e.given["command"] {
		s.Type = "http"
		if e.p.log != nil {
			e.p.log.Warn(`server entry has a url and no type: plainmcp reads it as "type": "http", Claude Code skips it; write the type`,
				"source", e.p.source, "server", s.Name)
		}
	}
	switch {
	case s.Type != "stdio" && e.given["inheritEnv"]:
		return e.fail("inheritEnv", "applies only to stdio servers")
	case s.Type == "stdio" && e.given["inheritEnv"]:
		s.SafeEnv = !e.inherit
	case s.Type == "stdio":
		s.SafeEnv = e.p.safeEnv
	}
	if e.oauthRaw != nil && s.Type != "stdio" {
		var err error
		s.OAuth, err = e.p.oauth(s.Name, e.oauthRaw)
		return err
	}
	return nil
}

// settleTransport makes "transport", type's synonym, the type, unless a
// type given names another.
func (e *entry) settleTransport() error {
	if !e.given["transport"] {
		return nil
	}
	if e.given["type"] && e.s.Type != e.transport {
		return e.fail("transport", "%q and \"type\": %q name different transports; give one", e.transport, e.s.Type)
	}
	e.s.Type = e.transport
	return nil
}

// expand replaces the variable references, in a fixed order, so the same
// file always gives the same first error. Env and header names are not
// expanded, only values.
func (e *entry) expand() error {
	s := e.s
	var err error
	x := func(key string, v *string) {
		if err == nil {
			err = e.expandOne(key, v)
		}
	}
	x("command", &s.Command)
	for i := range s.Args {
		x("args["+strconv.Itoa(i)+"]", &s.Args[i])
	}
	for i := range e.env {
		x("env."+e.env[i].key, &e.env[i].val)
	}
	x("cwd", &s.Cwd)
	x("url", &s.URL)
	for i := range e.headers {
		x("headers."+e.headers[i].key, &e.headers[i].val)
	}
	if o := s.OAuth; o != nil && !o.ClientSecret.IsZero() {
		v := o.ClientSecret.Reveal()
		x("oauth.clientSecret", &v)
		o.ClientSecret = secret.New(v)
	}
	return err
}

// expandOne expands *v, keeping its text as written for String when it
// held a reference.
func (e *entry) expandOne(key string, v *string) error {
	out, refs, err := expandVars(*v, e.p.env)
	if err != nil {
		return e.fail(key, "%v", err)
	}
	if refs {
		if e.s.templates == nil {
			e.s.templates = map[string]string{}
		}
		e.s.templates[key] = *v
	}
	*v = out
	return nil
}

// finish checks the expanded values and makes env and headers maps.
func (e *entry) finish() error {
	var err error
	if e.s.Env, err = e.p.checkEnv(e.s.Name, e.env); err != nil {
		return err
	}
	if e.s.Headers, err = e.p.checkHeaders(e.s.Name, e.headers); err != nil {
		return err
	}
	return e.p.check(e.s)
}
