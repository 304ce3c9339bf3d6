package oauth

import (
	"errors"
	"fmt"
	"strings"
)

// An authChallenge is one challenge of a WWW-Authenticate header (RFC 9110
// section 11.6.1): a scheme such as "Bearer" or "DPoP" with either a
// token68 or named parameters.
type authChallenge struct {
	// Scheme is the auth scheme as the server spelled it; schemes compare
	// case-insensitively.
	Scheme string
	// Token68 is the challenge's token68 form, when it has one.
	Token68 string
	// Params holds the parameters by lower-cased name, quoted strings
	// unquoted. A name repeated within a challenge keeps its first value.
	Params map[string]string
}

// errChallenge is wrapped by the error for a malformed WWW-Authenticate
// header.
var errChallenge = errors.New("oauth: malformed WWW-Authenticate header")

// parseChallenges parses the values of WWW-Authenticate headers into their
// challenges, in order. A value may hold several challenges separated by
// commas. On a malformed value it returns the challenges parsed before the
// fault and an error wrapping errChallenge.
func parseChallenges(values []string) ([]authChallenge, error) {
	var out []authChallenge
	for _, v := range values {
		p := challengeParser{s: v}
		cs, err := p.challenges()
		out = append(out, cs...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// bearerChallenge is the first Bearer challenge among cs, if any.
func bearerChallenge(cs []authChallenge) (authChallenge, bool) {
	return schemeChallenge(cs, "Bearer")
}

// schemeChallenge is the first challenge of cs with the scheme.
func schemeChallenge(cs []authChallenge, scheme string) (authChallenge, bool) {
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, scheme) {
			return c, true
		}
	}
	return authChallenge{}, false
}

type challengeParser struct {
	s string
	i int
}

func (p *challengeParser) atEnd() bool { return p.i >= len(p.s) }

func (p *challengeParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// skipSeparators skips spaces and the commas of empty list elements.
func (p *challengeParser) skipSeparators() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

func (p *challengeParser) token() string {
	start := p.i
	for p.i < len(p.s) && isTchar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func (p *challengeParser) errorf(what string) error {
	return fmt.Errorf("%w: %s at byte %d", errChallenge, what, p.i)
}

func (p *challengeParser) challenges() ([]authChallenge, error) {
	var out []authChallenge
	for {
		p.skipSeparators()
		if p.atEnd() {
			return out, nil
		}
		scheme := p.token()
		if scheme == "" {
			return out, p.errorf("want an auth scheme")
		}
		c := authChallenge{Scheme: scheme, Params: map[string]string{}}
		spaced := !p.atEnd() && (p.s[p.i] == ' ' || p.s[p.i] == '\t')
		p.skipSpace()
		if !p.atEnd() && p.s[p.i] != ',' {
			if !spaced {
				return out, p.errorf("want a space after the auth scheme")
			}
			if t68, ok := p.token68(); ok {
				c.Token68 = t68
			} else if err := p.params(&c); err != nil {
				return out, err
			}
		}
		out = append(out, c)
	}
}

// token68 reads a token68 that ends the challenge (followed by the end or
// a comma), or leaves the position alone and reports false.
func (p *challengeParser) token68() (string, bool) {
	start := p.i
	for p.i < len(p.s) && (isAlnum(p.s[p.i]) || strings.IndexByte("-._~+/", p.s[p.i]) >= 0) {
		p.i++
	}
	if p.i == start {
		return "", false
	}
	for p.i < len(p.s) && p.s[p.i] == '=' {
		p.i++
	}
	end := p.i
	p.skipSpace()
	if p.atEnd() || p.s[p.i] == ',' {
		return p.s[start:end], true
	}
	p.i = start
	return "", false
}

// params reads name=value pairs until the end or the start of the next
// challenge (a comma followed by a token that no "=" follows).
func (p *challengeParser) params(c *authChallenge) error {
	for {
		name := p.token()
		if name == "" {
			return p.errorf("want a parameter name")
		}
		p.skipSpace()
		if p.atEnd() || p.s[p.i] != '=' {
			return p.errorf("want '=' after a parameter name")
		}
		p.i++
		p.skipSpace()
		var value string
		if !p.atEnd() && p.s[p.i] == '"' {
			v, err := p.quoted()
			if err != nil {
				return err
			}
			value = v
		} else if value = p.token(); value == "" {
			return p.errorf("want a parameter value")
		}
		key := strings.ToLower(name)
		if _, dup := c.Params[key]; !dup {
			c.Params[key] = value
		}
		p.skipSpace()
		if p.atEnd() {
			return nil
		}
		if p.s[p.i] != ',' {
			return p.errorf("want ',' between parameters")
		}
		p.skipSeparators()
		if p.atEnd() {
			return nil
		}
		// A parameter or the next challenge's scheme?
		mark := p.i
		p.token()
		p.skipSpace()
		isParam := !p.atEnd() && p.s[p.i] == '='
		p.i = mark
		if !isParam {
			return nil
		}
	}
}

// quoted reads a quoted-string, undoing its backslash escapes.
func (p *challengeParser) quoted() (string, error) {
	p.i++ // the opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		ch := p.s[p.i]
		switch {
		case ch == '"':
			p.i++
			return b.String(), nil
		case ch == '\\' && p.i+1 < len(p.s):
			b.WriteByte(p.s[p.i+1])
			p.i += 2
		default:
			b.WriteByte(ch)
			p.i++
		}
	}
	return "", p.errorf("unterminated quoted string")
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// isTchar reports whether c may appear in an HTTP token (RFC 9110).
func isTchar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
