package formbound

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// list is a JSON array of n strings.
func list(n int) string {
	return `[` + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + `]`
}

// fields is a JSON object of n string fields.
func fields(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"f%d":{"type":"string"}`, i)
	}
	b.WriteByte('}')
	return b.String()
}

// A form over the bounds is caught however it is spelled: mcpc web's
// script reads "properties" and "enum" even when a sibling of another
// type, or another spelling Go's decoder takes instead (or merges), would
// hide them from a reader that decodes the schema into a struct.
func TestCheckSeesWhatEveryReaderSees(t *testing.T) {
	over := list(MaxChoices + 1)
	for _, tc := range []struct {
		name   string
		schema string
		over   bool
	}{
		{"fields beside a Properties that is no object", `{"properties":` + fields(MaxFields+1) + `,"Properties":5}`, true},
		{"fields under two spellings", `{"properties":` + fields(MaxFields/2+1) + `,"PROPERTIES":{` + strings.ReplaceAll(fields(MaxFields/2 + 1)[1:], `"f`, `"g`) + `}`, true},
		{"enum beside a oneOf that is no list", `{"properties":{"f":{"enum":` + over + `,"oneOf":"x"}}}`, true},
		{"enum then an empty ENUM", `{"properties":{"f":{"enum":` + over + `,"ENUM":[]}}}`, true},
		{"items beside a type that is no string", `{"properties":{"f":{"type":"array","items":{"enum":` + over + `},"minItems":"x"}}}`, true},
		{"items' enum beside an anyOf that is no list", `{"properties":{"f":{"type":"array","items":{"enum":` + over + `,"anyOf":{}}}}}`, true},
		{"at the bounds", `{"properties":{"f":{"enum":` + list(MaxChoices) + `},"g":{"type":"array","items":{"oneOf":` + list(MaxChoices) + `}}}}`, false},
		{"as many fields as asked", `{"properties":` + fields(MaxFields) + `}`, false},
		{"no object", `[1,2]`, false},
	} {
		err := Check(json.RawMessage(tc.schema))
		if !json.Valid([]byte(tc.schema)) {
			t.Fatalf("%s: not JSON", tc.name)
		}
		if got := errors.Is(err, ErrTooLarge); got != tc.over {
			t.Errorf("%s: Check = %v, want over the bounds: %v", tc.name, err, tc.over)
		}
	}
}

// Items are read one level down only: a deep nest of items costs one
// pass, not one per level.
func TestCheckReadsItemsOneLevelDown(t *testing.T) {
	deep := `{"enum":` + list(MaxChoices+1) + `}`
	for range 3 {
		deep = `{"type":"array","items":` + deep + `}`
	}
	if err := Check(json.RawMessage(`{"properties":{"f":` + deep + `}}`)); err != nil {
		t.Errorf("Check read past the items: %v", err)
	}
}
