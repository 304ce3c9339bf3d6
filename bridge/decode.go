package bridge

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/jsonscan"
)

// Reading a provider's answer in memory that follows its bytes. The
// body's limit (maxResponseBytes) bounds an answer only if decoding it
// does not multiply it: encoding/json makes every element of an array
// there is, and one of two bytes ({}) costs a struct of a hundred, so 16
// MiB of them held gigabytes. Every array of an answer is therefore
// decoded with a bound on its elements (over it is an error), content
// an answer's blocks may nest is not decoded at all, and a tool call's
// arguments are checked to be an object without being taken apart.

// maxChoices bounds the choices of a Chat Completions answer or chunk:
// one is asked for, and the first is read.
const maxChoices = 16

// decodeList decodes a JSON array (or null) of at most max elements,
// counting them before any is made.
func decodeList[T any](data []byte, max int, what string) ([]T, error) {
	if n := arrayLen(data); n > max {
		return nil, fmt.Errorf("%d %s, more than %d", n, what, max)
	}
	var out []T // a plain slice: its elements' own lists are bounded in turn
	err := json.Unmarshal(data, &out)
	return out, err
}

// arrayLen counts the elements of data, a valid JSON value as
// encoding/json hands an UnmarshalJSON, without decoding any of them
// (internal/jsonscan walks it, within encoding/json's depth). Anything but
// an array counts 0.
func arrayLen(data []byte) int {
	i := jsonscan.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return 0
	}
	n := 0
	jsonscan.EachElement(data, i, func([]byte) { n++ })
	return n
}

type (
	oaChoices      []oaChoice
	oaToolCalls    []oaToolCall
	oaChunkChoices []oaChunkChoice
	oaCallDeltas   []oaCallDelta
	anReplyBlocks  []anReplyBlock
)

func (l *oaChoices) UnmarshalJSON(b []byte) (err error) {
	*l, err = decodeList[oaChoice](b, maxChoices, "choices")
	return err
}

func (l *oaToolCalls) UnmarshalJSON(b []byte) (err error) {
	*l, err = decodeList[oaToolCall](b, maxStreamedCalls, "tool calls")
	return err
}

func (l *oaChunkChoices) UnmarshalJSON(b []byte) (err error) {
	*l, err = decodeList[oaChunkChoice](b, maxChoices, "choices")
	return err
}

func (l *oaCallDeltas) UnmarshalJSON(b []byte) (err error) {
	*l, err = decodeList[oaCallDelta](b, maxStreamedCalls, "tool calls")
	return err
}

func (l *anReplyBlocks) UnmarshalJSON(b []byte) (err error) {
	*l, err = decodeList[anReplyBlock](b, maxStreamedBlocks, "content blocks")
	return err
}

// anReplyBlock is a content block of an answer, as far as it is read:
// what a block nests (a server tool's result, say) is left undecoded.
type anReplyBlock struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// isObject reports whether data is one JSON object, as a tool call's
// arguments must be: checked, not decoded, since an object of a million
// keys would be a map of a million entries.
func isObject(data []byte) bool {
	data = bytes.TrimSpace(data)
	return len(data) > 0 && data[0] == '{' && json.Valid(data)
}
