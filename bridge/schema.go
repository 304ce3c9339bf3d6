package bridge

import "encoding/json"

// rejectedKeys are the top-level keys of an input schema that providers
// refuse in a tool definition: "$schema" (which SDKs add to every schema)
// and the other keywords that only describe the document, and "oneOf",
// "anyOf" and "allOf", which the Messages API does not take at the top.
var rejectedKeys = []string{"$schema", "$id", "$comment", "oneOf", "anyOf", "allOf"}

// exportSchema returns an MCP input schema as providers take it in a tool
// definition: a JSON object whose type is "object", with "properties"
// (an empty object if the server gave none), and without the top-level
// keys providers reject ("$schema", "$id", "$comment", and "oneOf",
// "anyOf" and "allOf"). Anything that is not a JSON object becomes an
// empty object schema. The registry keeps the server's schema byte for
// byte; only the copy sent to a provider is changed, and only at the top:
// the server still checks the arguments against its own.
func exportSchema(schema json.RawMessage) json.RawMessage {
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil || top == nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	changed := false
	for _, k := range rejectedKeys {
		if _, ok := top[k]; ok {
			delete(top, k)
			changed = true
		}
	}
	if string(top["type"]) != `"object"` {
		top["type"], changed = json.RawMessage(`"object"`), true
	}
	if p, ok := top["properties"]; !ok || len(p) == 0 || p[0] != '{' {
		top["properties"], changed = json.RawMessage(`{}`), true
	}
	if !changed {
		return schema
	}
	out, err := json.Marshal(top)
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return out
}
