// Package secret holds the values plainmcp must never show: access and
// refresh tokens, client secrets, private keys, assertions, header values.
// Secret-ness is a property of the type, not of each printer. A
// [Value] prints as a placeholder through every way Go has to show a
// value — fmt's verbs (String, GoString, Format) and encoding/json
// (MarshalJSON), and so log/slog's handlers, which print through them —
// so a struct that holds one prints safely
// with no printer of its own, and a new field of the type is safe the day
// it is added. The one way out is [Value.Reveal], called where the wire
// needs the value itself.
//
//	tok := secret.New("s3cr3t-access-token")
//	fmt.Println(tok)                                  // [redacted]
//	req.Header.Set("Authorization", "Bearer "+tok.Reveal())
//
// An empty secret prints as the empty string (and JSON's ""): whether a
// secret is set is not itself a secret, and "no client secret" is worth
// seeing when a configuration is printed. Nothing else about a set one —
// not its length, not a prefix — is ever shown.
//
// A secret that a peer may echo back (a token endpoint quoting the
// request it got) is taken out of the text before it is quoted, by the
// transports and the OAuth client themselves.
//
// # Why a pointer inside
//
// fmt calls a value's own methods only when it can reach the value as an
// interface; a Value in an unexported field of another struct is printed
// by reflection instead. Keeping the secret behind a pointer makes that
// print an address, never the text. The same field makes a Value not
// comparable with ==, which would compare pointers: use [Value.Equal].
//
// # Encoding
//
// A Value has no UnmarshalJSON: decoding the placeholder back must never
// turn it into a secret. Code that stores secrets (a token file) copies
// them into a type of its own with Reveal, on purpose.
package secret

import (
	"fmt"
	"io"
)

// Placeholder is what a set secret prints as.
const Placeholder = "[redacted]"

// A Value is a secret of type T: a token, a key, a password. Its zero
// value is the empty secret. A Value is immutable and safe for concurrent
// use; copies share the secret.
type Value[T comparable] struct {
	_ [0]func() // not comparable: == would compare pointers; use Equal
	p *T
}

// String is a secret string, the usual kind: a token, a client secret, a
// header value.
type String = Value[string]

// New returns v as a secret. The zero value of T gives the empty secret.
func New[T comparable](v T) Value[T] {
	var zero T
	if v == zero {
		return Value[T]{}
	}
	return Value[T]{p: &v}
}

// Reveal returns the secret itself, for the wire (a header, a form, a
// signature) and for a store that must keep it. It is the only way to
// read a secret; call it where the value leaves, never to show it.
func (v Value[T]) Reveal() T {
	if v.p == nil {
		var zero T
		return zero
	}
	return *v.p
}

// IsZero reports whether the secret is empty.
func (v Value[T]) IsZero() bool { return v.p == nil }

// Equal reports whether v and w hold the same secret (go-cmp uses it
// too).
func (v Value[T]) Equal(w Value[T]) bool { return v.Reveal() == w.Reveal() }

// String is "" for the empty secret and [Placeholder] for any other.
func (v Value[T]) String() string {
	if v.p == nil {
		return ""
	}
	return Placeholder
}

// GoString is what %#v prints: secret.Value{} when empty, else
// secret.Value{[redacted]}.
func (v Value[T]) GoString() string {
	if v.p == nil {
		return "secret.Value{}"
	}
	return "secret.Value{" + Placeholder + "}"
}

// Format makes every fmt verb print String (GoString for %#v), with its
// flags and width: %q quotes the placeholder, %x hex-encodes it, and no
// verb reaches the secret.
func (v Value[T]) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		io.WriteString(f, v.GoString())
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), v.String())
}

// MarshalJSON encodes String: "" or "[redacted]".
func (v Value[T]) MarshalJSON() ([]byte, error) {
	if v.p == nil {
		return []byte(`""`), nil
	}
	return []byte(`"` + Placeholder + `"`), nil
}
