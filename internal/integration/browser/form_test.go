package main

import (
	"io"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A login page and a consent page as authorization servers render them:
// void inputs, entities, a script with a "<" in it, a second form.
const loginPage = `<!DOCTYPE html>
<html><head><title>Sign-in</title><style>body{font:1em sans-serif}</style></head>
<body><div class="login-card"><h1>Sign-in</h1>
<form autocomplete="off" action="/interaction/abc?x=1&amp;y=2" method="post">
  <input type="hidden" name="prompt" value="login"/>
  <input required type="text" name="login" placeholder="Enter any login" autofocus="on">
  <input required type="password" name="password" placeholder="and password">
  <label><input type="checkbox" name="remember"> remember me</label>
  <button type="submit" class="login login-submit">Sign-in</button>
</form>
<script>if (1 < 2) { document.title = "x" }</script>
<form action="/abort" method="post"><button type="submit" name="cancel" value="1">Cancel</button></form>
</div></body></html>`

func TestParseForms(t *testing.T) {
	forms := parseForms([]byte(loginPage))
	if len(forms) != 2 {
		t.Fatalf("%d forms: %+v", len(forms), forms)
	}
	want := form{action: "/interaction/abc?x=1&y=2", method: "POST", fields: []field{
		{tag: "input", typ: "hidden", name: "prompt", value: "login"},
		{tag: "input", typ: "text", name: "login"},
		{tag: "input", typ: "password", name: "password"},
		{tag: "input", typ: "checkbox", name: "remember"},
		{tag: "button", typ: "submit"},
	}}
	if d := cmp.Diff(want, forms[0], cmp.AllowUnexported(form{}, field{})); d != "" {
		t.Errorf("login form (-want +got):\n%s", d)
	}
}

func TestSubmit(t *testing.T) {
	page, _ := url.Parse("http://127.0.0.1:9/auth?client_id=c")
	tests := []struct {
		name, method, url, body string
		f                       form
	}{
		{"post login", "POST", "http://127.0.0.1:9/interaction/abc?x=1&y=2", "login=alice&password=correct+horse+battery+staple&prompt=login&remember=on",
			parseForms([]byte(loginPage))[0]},
		{"get consent", "GET", "http://127.0.0.1:9/consent?ok=yes&prompt=consent", "",
			form{action: "/consent", fields: []field{{typ: "hidden", name: "prompt", value: "consent"}, {tag: "button", typ: "submit", name: "ok", value: "yes"}, {tag: "button", typ: "submit", name: "no", value: "1"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := tt.f.submit(page, "alice")
			if err != nil {
				t.Fatal(err)
			}
			var body []byte
			if req.Body != nil {
				body, _ = io.ReadAll(req.Body)
			}
			if req.Method != tt.method || req.URL.String() != tt.url || string(body) != tt.body {
				t.Errorf("%s %s %q, want %s %s %q", req.Method, req.URL, body, tt.method, tt.url, tt.body)
			}
		})
	}
}

// FuzzParseForms feeds the form reader arbitrary pages: it must end, and
// every form it finds must build a request or an error.
func FuzzParseForms(f *testing.F) {
	f.Add([]byte(loginPage))
	f.Add([]byte(`<form action="javascript:x" method="dialog"><input name=a value=b>`))
	f.Add([]byte(`<form><form><input type=submit name=s></form>`))
	page, _ := url.Parse("http://127.0.0.1:9/p")
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, fm := range parseForms(b) {
			fm.submit(page, "alice")
		}
	})
}
