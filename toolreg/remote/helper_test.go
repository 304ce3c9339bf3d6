package remote

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/internal/testkit/leakcheck"
	"github.com/plainmcp/plainmcp/secret"
	"github.com/plainmcp/plainmcp/toolreg"
)

// A headersHelper's headers, an Authorization of a scheme other than
// Bearer among them, reach the server, and its output never shows in an
// error.
func TestHeadersHelper(t *testing.T) {
	leakcheck.Check(t)
	inner := tinyHTTPServer(t)
	srv := tinyHTTPServerBehind(t, func(r *http.Request) bool {
		return r.Header.Get("Authorization") == "Token helper-s3cret-value" && r.Header.Get("X-Tenant") == "t1"
	}, inner.Config.Handler)
	t.Setenv(helperEnv, `{"Authorization": "Token helper-s3cret-value", "X-Tenant": "t1"}`)
	r := newRegistry(t, nil, &toolreg.ServerConfig{Name: "web", Type: "http", URL: srv.URL, HeadersHelper: secret.New(os.Args[0] + " -test.run=^$")})
	if res, err := r.Call(ctx10(t), "mcp__web__hello", nil); err != nil || res.Text() != "hi" {
		t.Fatalf("%+v %v", res, err)
	}

	t.Setenv(helperEnv, `["helper-s3cret-value"]`)
	r2 := newRegistry(t, nil, &toolreg.ServerConfig{Name: "web", Type: "http", URL: srv.URL, HeadersHelper: secret.New(os.Args[0])})
	err := r2.Servers()[0].Err
	if err == nil || !strings.Contains(err.Error(), "JSON object") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("err = %v, want the bad output refused without quoting it", err)
	}
}

// tinyHTTPServerBehind serves next to requests ok accepts, and 403 to
// the others.
func tinyHTTPServerBehind(t *testing.T, ok func(*http.Request) bool, next http.Handler) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ok(r) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}
