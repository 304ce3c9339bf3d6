package mcpjson

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/plainmcp/plainmcp/secret"
)

// entry is one server entry in the making: what its keys gave so far.
type entry struct {
	p            *configParser
	s            *ServerConfig
	env, headers []stringMember
	given        map[string]bool // the known keys with a value other than null
	inherit      bool            // "inheritEnv", true unless it says false
	transport    string          // "transport", type's synonym, as known
	oauthRaw     json.RawMessage
}

// fail makes an error located at the entry's server and key.
func (e *entry) fail(key, format string, args ...any) error {
	return e.p.errorf(e.s.Name, key, format, args...)
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
