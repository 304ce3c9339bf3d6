package rpcwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/plainmcp/plainmcp/internal/jsonscan"
)

// ID is a request id. JSON-RPC lets the sender choose a number or a string,
// and the receiver must echo it exactly; ID keeps which one it was and, for a
// number that is not a plain integer, its exact text. The zero ID means
// "no id" (a notification, or null in an error response).
//
// IDs are comparable values and can be map keys; two IDs are equal when
// they would be written out the same.
type ID struct {
	num  int64
	text string // a string id's value, or a number's text when it is not a plain int64
	kind idKind
}

type idKind uint8

const (
	idNone idKind = iota
	idInt
	idNumberText // a number kept as its literal text (1.5, 1e3, -0)
	idString
)

// Int64ID returns a numeric id.
func Int64ID(n int64) ID { return ID{num: n, kind: idInt} }

// StringID returns a string id.
func StringID(s string) ID { return ID{text: s, kind: idString} }

// IsValid reports whether the ID is set (not the zero ID).
func (id ID) IsValid() bool { return id.kind != idNone }

// IsString reports whether the peer chose a string id.
func (id ID) IsString() bool { return id.kind == idString }

// Int64 returns the id as an integer and whether it is one.
func (id ID) Int64() (int64, bool) { return id.num, id.kind == idInt }

// String formats the id for humans: numbers bare, strings quoted, the zero ID
// as "null".
func (id ID) String() string {
	return string(id.appendJSON(nil))
}

// MarshalJSON writes the id exactly as it was received or created.
func (id ID) MarshalJSON() ([]byte, error) { return id.appendJSON(nil), nil }

// UnmarshalJSON accepts a JSON number, a JSON string or null.
func (id *ID) UnmarshalJSON(data []byte) error {
	v, err := parseID(bytes.TrimSpace(data))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

func (id ID) appendJSON(b []byte) []byte {
	switch id.kind {
	case idInt:
		return strconv.AppendInt(b, id.num, 10)
	case idNumberText:
		return append(b, id.text...)
	case idString:
		return appendString(b, id.text)
	}
	return append(b, "null"...)
}

// parseID reads an id from its raw JSON text (no surrounding space).
func parseID(raw []byte) (ID, error) {
	if len(raw) == 0 {
		return ID{}, fmt.Errorf("empty id")
	}
	switch c := raw[0]; {
	case c == '"':
		s, err := jsonscan.Unquote(raw)
		if err != nil {
			return ID{}, fmt.Errorf("id %.40s: %w", raw, err)
		}
		return StringID(s), nil
	case c == '-' || (c >= '0' && c <= '9'):
		if n, ok := parseInt64(raw); ok {
			return Int64ID(n), nil
		}
		if !json.Valid(raw) {
			return ID{}, fmt.Errorf("id %.40s is not a valid number", raw)
		}
		return ID{text: string(raw), kind: idNumberText}, nil
	case string(raw) == "null":
		return ID{}, nil
	}
	return ID{}, fmt.Errorf("id must be a number or a string, got %.40s", raw)
}

// parseInt64 parses a plain JSON integer (no fraction, no exponent, no
// leading zeros) without allocating. It reports false for anything else,
// including values that overflow int64.
func parseInt64(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return -int64(n), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}
