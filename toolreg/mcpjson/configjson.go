package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
)

// jsonMember is one member of a JSON object.
type jsonMember struct {
	key string
	val json.RawMessage
}

// stringMember is one string member of a JSON object.
type stringMember struct{ key, val string }

// objectFields splits the JSON object raw, which must be valid JSON, into
// its members in order, repeated keys included. ok is false if raw is not
// an object.
func objectFields(raw json.RawMessage) (members []jsonMember, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, false
		}
		members = append(members, jsonMember{key, val})
	}
	return members, true
}

// findMember returns the last value of key among members and how many
// times it appears.
func findMember(members []jsonMember, key string) (val json.RawMessage, n int) {
	for _, f := range members {
		if f.key == key {
			val, n = f.val, n+1
		}
	}
	return val, n
}

func isJSONNull(raw json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func decodeString(raw json.RawMessage, v *string) error {
	if json.Unmarshal(raw, v) != nil {
		return errors.New("want a string")
	}
	return nil
}
