package toolsearch

import (
	"encoding/json"

	"github.com/plainmcp/plainmcp/mcpclient"
)

// maxArgs bounds the arguments of one tool that are indexed.
const maxArgs = 64

// DocOf is the document of a server's tool: its name, title (or the
// annotations' title), description, and the names and descriptions of
// the properties of its input schema.
func DocOf(server string, t *mcpclient.Tool) Doc {
	d := Doc{Server: server, Name: t.Name, Title: t.Title, Description: t.Description}
	if d.Title == "" && t.Annotations != nil {
		d.Title = t.Annotations.Title
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	json.Unmarshal(t.InputSchema, &schema) // a schema that is not an object has no arguments
	for name, raw := range schema.Properties {
		if len(d.Args) == maxArgs {
			break
		}
		var p struct {
			Description string `json:"description"`
		}
		json.Unmarshal(raw, &p) // a property may say nothing of itself
		d.Args = append(d.Args, Arg{Name: name, Description: p.Description})
	}
	return d
}
