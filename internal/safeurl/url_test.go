package safeurl

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		ok   bool
		says string // in the error
	}{
		{"https://as.example/authorize?client_id=x", true, ""},
		{"HTTPS://AS.EXAMPLE/a", true, ""},
		{"http://127.0.0.1:8080/callback", true, ""},
		{"http://127.1.2.3/cb", true, ""},
		{"http://localhost:3000/cb", true, ""},
		{"http://LOCALHOST/cb", true, ""},
		{"http://[::1]:9/cb", true, ""},
		{"http://[::ffff:127.0.0.1]/cb", true, ""},
		{"http://as.example/authorize", false, "http on a host that is not loopback"},
		{"http://127.0.0.1.evil.example/", false, "not loopback"},
		{"http://localhost.evil.example/", false, "not loopback"},
		{"http://10.0.0.1/", false, "not loopback"},
		{"javascript:alert(document.cookie)//https://as.example", false, `scheme "javascript"`},
		{"JavaScript:alert(1)", false, `scheme "javascript"`},
		{"file:///etc/passwd", false, `scheme "file"`},
		{"data:text/html;base64,PHNjcmlwdD4=", false, `scheme "data"`},
		{"vscode://vscode.git/clone?url=evil", false, `scheme "vscode"`},
		{"ms-msdt:/id PCWDiagnostic", false, `scheme "ms-msdt"`},
		{"smb://evil.example/share", false, `scheme "smb"`},
		{"ftp://evil.example/", false, `scheme "ftp"`},
		{"//as.example/authorize", false, "no scheme"},
		{"/authorize", false, "no scheme"},
		{"https:as.example", false, "no host"},
		{"https:///path", false, "no host"},
		{"https://bank.example@evil.example/", false, "user info"},
		{"https://user:pass@as.example/", false, "user info"},
		{"https://as.example/\x1b[2J", false, "malformed"},
	} {
		u, err := Parse("the authorization_endpoint", tc.raw)
		if tc.ok {
			if err != nil || u == nil {
				t.Errorf("%q: %v", tc.raw, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q: allowed", tc.raw)
			continue
		}
		if !errors.Is(err, ErrUnsafe) {
			t.Errorf("%q: %v does not wrap ErrUnsafe", tc.raw, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "the authorization_endpoint") || !strings.Contains(msg, tc.says) {
			t.Errorf("%q: %q does not name the endpoint and say %q", tc.raw, msg, tc.says)
		}
		if strings.Contains(msg, "alert") || strings.Contains(msg, "passwd") || strings.Contains(msg, "evil") || strings.Contains(msg, "pass@") {
			t.Errorf("%q: the error quotes the URL: %s", tc.raw, msg)
		}
	}
	if err := Check("the URL", nil); !errors.Is(err, ErrUnsafe) {
		t.Errorf("nil: %v", err)
	}
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://a.example/x?y", "http://127.0.0.1:1/", "javascript:alert(1)", "http://[::1]/", "https://u@h/", "file:///x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := Parse("the URL", raw)
		if err != nil {
			if !errors.Is(err, ErrUnsafe) {
				t.Errorf("%q: %v does not wrap ErrUnsafe", raw, err)
			}
			if len(raw) > 24 && strings.Contains(err.Error(), raw) {
				t.Errorf("the error quotes the URL: %v", err)
			}
			return
		}
		again, perr := url.Parse(u.String())
		if perr != nil {
			return
		}
		switch s := strings.ToLower(again.Scheme); {
		case s == "https" && again.Host != "":
		case s == "http" && Loopback(again.Hostname()):
		default:
			t.Errorf("%q allowed: scheme %q host %q", raw, again.Scheme, again.Host)
		}
		if u.User != nil {
			t.Errorf("%q allowed with user info", raw)
		}
	})
}

func TestCheckNamedURL(t *testing.T) {
	remote, _ := url.Parse("https://mcp.example/mcp")
	local, _ := url.Parse("http://127.0.0.1:8080/mcp")
	for _, tc := range []struct {
		raw string
		by  *url.URL
		ok  bool
	}{
		{"https://as.example/.well-known/x", remote, true},
		{"https://as.example/", local, true},
		{"http://localhost:9000/", local, true},
		{"https://[::1]/", local, true},
		{"http://localhost:9000/admin", remote, false},
		{"http://127.0.0.2/", remote, false},
		{"https://127.0.0.1/", remote, false},
		{"https://localhost./", remote, false},
		{"https://app.localhost/", remote, false},
		{"https://0.0.0.0:8443/", remote, false},
		{"https://[::]:8443/", remote, false},
		{"https://[::ffff:127.0.0.1]/", remote, false},
		{"http://as.example/", local, false}, // Check's rule still holds
		{"https://127.0.0.1/", nil, false},
	} {
		u, err := url.Parse(tc.raw)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckNamed("the resource_metadata URL", u, tc.by)
		if tc.ok != (err == nil) {
			t.Errorf("%s named by %v: %v", tc.raw, tc.by, err)
		}
		if err != nil && (!errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "the resource_metadata URL")) {
			t.Errorf("%s: %v does not wrap ErrUnsafe and name the URL", tc.raw, err)
		}
	}
}
