package mcpjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"time"
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

// stringList decodes an array of strings; an error names the element.
func (p *configParser) stringList(server, key string, raw json.RawMessage) ([]string, error) {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, errors.New("want an array of strings")
	}
	list := make([]string, len(items))
	for i, item := range items {
		if isJSONNull(item) || json.Unmarshal(item, &list[i]) != nil {
			return nil, p.errorf(server, key+"["+strconv.Itoa(i)+"]", "want a string")
		}
	}
	return list, nil
}

// stringMap decodes an object of strings, in order; an error names the
// member.
func (p *configParser) stringMap(server, key string, raw json.RawMessage) ([]stringMember, error) {
	fields, ok := objectFields(raw)
	if !ok {
		return nil, errors.New("want an object of strings")
	}
	pairs := make([]stringMember, 0, len(fields))
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.key] {
			return nil, p.errorf(server, key+"."+f.key, "appears twice")
		}
		seen[f.key] = true
		var v string
		if isJSONNull(f.val) || json.Unmarshal(f.val, &v) != nil {
			return nil, p.errorf(server, key+"."+f.key, "want a string")
		}
		pairs = append(pairs, stringMember{f.key, v})
	}
	return pairs, nil
}

// maxMillis is the largest number of milliseconds a time.Duration holds.
const maxMillis = math.MaxInt64 / int64(time.Millisecond)

// decodeDuration decodes a timeout: a number of milliseconds, as Claude
// Code's own timeouts are written, or a Go duration string such as "30s".
func decodeDuration(raw json.RawMessage) (time.Duration, error) {
	bad := errors.New(`want milliseconds (a number) or a duration such as "30s"`)
	var str string
	if json.Unmarshal(raw, &str) == nil {
		d, err := time.ParseDuration(str)
		if err != nil || d < 0 {
			return 0, bad
		}
		return d, nil
	}
	var ms float64
	if json.Unmarshal(raw, &ms) != nil || !(ms >= 0 && ms <= float64(maxMillis)) {
		return 0, bad
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}
