package mcpclient

import (
	"encoding/json"
	"testing"
)

// Options.Skills declares the skills extension, and nothing else does.
func TestSkillsDeclared(t *testing.T) {
	o := &Options{Skills: true}
	got, _ := json.Marshal(o.capabilities(EraHandshake))
	if string(got) != `{"extensions":{"io.modelcontextprotocol/skills":{}}}` {
		t.Errorf("capabilities = %s", got)
	}
	got, _ = json.Marshal((&Options{}).capabilities(EraHandshake))
	if string(got) != `{}` {
		t.Errorf("without Skills: %s", got)
	}
}
