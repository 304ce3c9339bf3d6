package oauth

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// An authorization server that offers DPoP in front of a resource server
// that takes Bearer tokens alone: the tokens are Bearer, and work.
func TestDPoPOnlyWhenTheServerSpeaksIt(t *testing.T) {
	f := newDPoPFake(t, &dpopFake{bearerRS: true})
	a, err := New(Config{ServerURL: f.srv.URL + "/mcp", ClientID: "c1", ClientCredentials: true})
	if err != nil {
		t.Fatal(err)
	}
	f.post(t, a)
	if len(f.bad) > 0 || f.tokenReqs != 1 {
		t.Errorf("problems %q, %d token requests; want none, 1", f.bad, f.tokenReqs)
	}
}

// A DPoP-bound token is stored with its key (0600), and the next run
// uses both: no new token, every proof signed with the token's key.
func TestDPoPKeyStoredForTheNextRun(t *testing.T) {
	f := newDPoPFake(t, &dpopFake{dpop: true})
	path := filepath.Join(t.TempDir(), "tokens.json")
	for run := range 2 {
		a, err := New(Config{ServerURL: f.srv.URL + "/mcp", ClientID: "c1", ClientCredentials: true, Store: &FileStore{Path: path}})
		if err != nil {
			t.Fatal(err)
		}
		f.post(t, a)
		if len(f.bad) > 0 || f.tokenReqs != 1 {
			t.Fatalf("run %d: proof problems %q, %d token requests; want none, 1", run, f.bad, f.tokenReqs)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `"dpop_key"`) {
		t.Errorf("the token file holds no DPoP key: %v", err)
	}
	if fi, err := os.Stat(path); runtime.GOOS != "windows" && (err != nil || fi.Mode().Perm() != 0o600) {
		t.Errorf("token file mode %v %v, want 0600", fi.Mode(), err)
	}
}
