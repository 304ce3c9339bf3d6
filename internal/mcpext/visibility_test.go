package mcpext

import "testing"

// The visibility the registry's model filter reads without mcpclient/apps:
// absent or unreadable metadata hides nothing, a visibility that is not a
// list of strings hides the tool from everyone.
func TestUIVisibleTo(t *testing.T) {
	for _, tc := range []struct {
		meta       string
		model, app bool
	}{
		{``, true, true},
		{`not json`, true, true},
		{`{}`, true, true},
		{`{"ui":"ui://x"}`, true, true},                     // not an object: no _meta.ui
		{`{"ui":{"resourceUri":"ui://x"}}`, true, true},     // no visibility: both
		{`{"ui":{"visibility":null}}`, true, true},          // null: as absent
		{`{"ui":{"visibility":["app"]}}`, false, true},      // hidden from the model
		{`{"ui":{"visibility":["model"]}}`, true, false},    // hidden from apps
		{`{"ui":{"visibility":[]}}`, false, false},          // visible to no one
		{`{"ui":{"visibility":"app"}}`, false, false},       // unreadable: fails closed
		{`{"ui":{"visibility":["app",1]}}`, false, false},   // unreadable: fails closed
		{`{"ui/resourceUri":"ui://x","ui":{}}`, true, true}, // the old flat key says nothing of it
	} {
		if got := UIVisibleTo([]byte(tc.meta), VisibleToModel); got != tc.model {
			t.Errorf("%s: visible to the model = %v, want %v", tc.meta, got, tc.model)
		}
		if got := UIVisibleTo([]byte(tc.meta), VisibleToApp); got != tc.app {
			t.Errorf("%s: visible to an app = %v, want %v", tc.meta, got, tc.app)
		}
	}
}
