package rpcwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/plainmcp/plainmcp/internal/jsonscan"
)

// Message is one JSON-RPC 2.0 message as it arrived: a request (Method and
// ID set), a notification (Method set, no ID) or a response (ID and either
// Result or Error). Params and Result are the exact bytes the peer sent; they
// are decoded only by whoever needs them.
type Message struct {
	ID     ID
	Method string
	Params json.RawMessage
	Result json.RawMessage
	Error  *Error
}

// IsRequest reports whether m is a request that expects a response.
func (m *Message) IsRequest() bool { return m.Method != "" && m.ID.IsValid() }

// IsNotification reports whether m is a notification.
func (m *Message) IsNotification() bool { return m.Method != "" && !m.ID.IsValid() }

// IsResponse reports whether m answers a request.
func (m *Message) IsResponse() bool { return m.Method == "" }

// Decode parses one JSON-RPC message (a JSON object). The returned
// message's Params and Result alias frame, so frame must not be modified
// afterwards. An error says what made the frame not JSON-RPC.
func Decode(frame []byte) (*Message, error) {
	i := jsonscan.SkipSpace(frame, 0)
	if i >= len(frame) || frame[i] != '{' {
		return nil, errors.New("jsonrpc: frame is not a JSON object")
	}
	env := envelope{m: new(Message)}
	end, err := jsonscan.EachMember(frame, i, 1, env.member)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: malformed frame: %w", err)
	}
	if jsonscan.SkipSpace(frame, end) != len(frame) {
		return nil, errors.New("jsonrpc: trailing data after message")
	}
	if err := env.check(); err != nil {
		return nil, err
	}
	return env.m, nil
}

// envelope is what Decode gathers in its one pass over a frame's members:
// the message itself, and what it needs to judge the message's shape.
type envelope struct {
	m                              *Message
	version, id                    []byte
	hasMethod, hasResult, hasError bool
}

// member takes one member of the frame's object.
func (e *envelope) member(key, value []byte) error {
	switch string(keyName(key)) {
	case "jsonrpc":
		e.version = value
	case "id":
		e.id = value
	case "method":
		e.hasMethod = true
		if len(value) == 0 || value[0] != '"' {
			return errors.New("method is not a string")
		}
		s, err := jsonscan.Unquote(value)
		if err != nil {
			return fmt.Errorf("method: %w", err)
		}
		e.m.Method = s
	case "params":
		if value[0] != '{' && value[0] != '[' {
			return errors.New("params is neither an object nor an array")
		}
		e.m.Params = value
	case "result":
		e.hasResult = true
		e.m.Result = value
	case "error":
		return e.errorMember(value)
	}
	return nil
}

// errorMember takes the error object; "error": null is no error at all.
func (e *envelope) errorMember(value []byte) error {
	if string(value) == "null" {
		e.hasError = false
		return nil
	}
	e.hasError = true
	obj := new(Error)
	if err := json.Unmarshal(value, obj); err != nil {
		return fmt.Errorf("error object: %w", err)
	}
	e.m.Error = obj
	return nil
}

// check judges the gathered members: the version, the id, and whether they
// make a request, a notification or a response — and nothing in between.
func (e *envelope) check() error {
	if string(e.version) != `"2.0"` {
		if e.version == nil {
			return errors.New(`jsonrpc: "jsonrpc" member missing`)
		}
		return fmt.Errorf(`jsonrpc: "jsonrpc" must be "2.0", got %.20s`, e.version)
	}
	if e.id != nil {
		var err error
		if e.m.ID, err = parseID(e.id); err != nil {
			return fmt.Errorf("jsonrpc: %w", err)
		}
	}
	switch {
	case e.hasMethod:
		return e.checkRequest()
	case e.hasResult && e.hasError:
		return errors.New("jsonrpc: response has both result and error")
	case e.hasResult || e.hasError:
		if e.id == nil {
			return errors.New("jsonrpc: response has no id")
		}
		if err := e.m.Error; err != nil && err.Message == "" && err.Code == 0 {
			return errors.New("jsonrpc: response error has no code or message")
		}
		return nil
	}
	return errors.New("jsonrpc: message has neither a method nor a result or error")
}

func (e *envelope) checkRequest() error {
	switch {
	case e.m.Method == "":
		return errors.New("jsonrpc: empty method name")
	case e.hasResult || e.hasError:
		return errors.New("jsonrpc: message has both a method and a result or error")
	case e.id != nil && !e.m.ID.IsValid():
		return errors.New("jsonrpc: request id is null")
	}
	return nil
}

// keyName returns an object key's value given its raw text. Keys are almost
// always plain, so the common case only strips the quotes.
func keyName(raw []byte) []byte {
	if bytes.IndexByte(raw[1:len(raw)-1], '\\') < 0 {
		return raw[1 : len(raw)-1]
	}
	s, err := jsonscan.Unquote(raw)
	if err != nil {
		return nil
	}
	return []byte(s)
}

// DecodeBatch parses a frame that is a JSON array of messages. Each element
// is decoded independently: a bad element yields an error in its slot and
// does not spoil the others.
func DecodeBatch(frame []byte) ([]*Message, []error, error) {
	i, err := CheckBatch(frame)
	if err != nil {
		return nil, nil, err
	}
	var msgs []*Message
	var errs []error
	jsonscan.EachElement(frame, i, func(elem []byte) {
		m, err := Decode(elem)
		msgs = append(msgs, m)
		errs = append(errs, err)
	})
	return msgs, errs, nil
}

// CheckBatch checks that frame is one JSON array with at least one
// element, and returns the index of its '['.
func CheckBatch(frame []byte) (int, error) {
	i := jsonscan.SkipSpace(frame, 0)
	if i >= len(frame) || frame[i] != '[' {
		return 0, errors.New("jsonrpc: frame is not a JSON array")
	}
	end, err := jsonscan.SkipArray(frame, i, 0)
	switch {
	case err != nil:
		return 0, fmt.Errorf("jsonrpc: malformed batch: %w", err)
	case jsonscan.SkipSpace(frame, end) != len(frame):
		return 0, errors.New("jsonrpc: trailing data after batch")
	case frame[jsonscan.SkipSpace(frame, i+1)] == ']':
		return 0, errors.New("jsonrpc: empty batch")
	}
	return i, nil
}

// The append functions below write messages without building a generic map
// or running reflection over the envelope; only params and results of the
// caller's own types are marshalled.

// AppendRequest appends a request (or, with a zero id, a notification)
// whose params are already encoded. Params may be nil.
func AppendRequest(b []byte, id ID, method string, params json.RawMessage) []byte {
	b = append(b, `{"jsonrpc":"2.0",`...)
	if id.IsValid() {
		b = append(b, `"id":`...)
		b = id.appendJSON(b)
		b = append(b, ',')
	}
	b = append(b, `"method":`...)
	b = appendString(b, method)
	if len(params) > 0 {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// AppendResult appends a successful response.
func AppendResult(b []byte, id ID, result json.RawMessage) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = id.appendJSON(b)
	b = append(b, `,"result":`...)
	if len(result) == 0 {
		result = json.RawMessage("{}")
	}
	b = append(b, result...)
	return append(b, '}')
}

// AppendError appends an error response. A zero id is written as null.
func AppendError(b []byte, id ID, e *Error) []byte {
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = id.appendJSON(b)
	b = append(b, `,"error":{"code":`...)
	b = fmt.Appendf(b, "%d", e.Code)
	b = append(b, `,"message":`...)
	b = appendString(b, e.Message)
	if len(e.Data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, e.Data...)
	}
	return append(b, `}}`...)
}
