package oauth

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

func TestFileStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "tokens.json")
	f := &FileStore{Path: path}
	if tok, err := f.Load(ctx, "https://a/mcp"); tok != nil || err != nil {
		t.Fatalf("empty store: %v %v", tok, err)
	}
	exp := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := f.Save(ctx, "https://a/mcp", &Token{AccessToken: secret.New("at"), RefreshToken: secret.New("rt"), Expiry: exp, Scope: "s"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(ctx, "https://b/mcp", &Token{AccessToken: secret.New("bt")}); err != nil {
		t.Fatal(err)
	}
	// A second store on the same file (a later run) sees both.
	g := &FileStore{Path: path}
	tok, err := g.Load(ctx, "https://a/mcp")
	if err != nil || tok == nil || tok.AccessToken.Reveal() != "at" || tok.RefreshToken.Reveal() != "rt" || !tok.Expiry.Equal(exp) || tok.Scope != "s" {
		t.Fatalf("loaded %+v %v", tok, err)
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("file mode %v %v, want 0600", fi.Mode(), err)
		}
	}
	if ok, err := g.Delete(ctx, "https://a/mcp"); !ok || err != nil {
		t.Errorf("Delete: %v %v", ok, err)
	}
	if ok, _ := g.Delete(ctx, "https://a/mcp"); ok {
		t.Error("a second Delete found the token")
	}
	if tok, _ := f.Load(ctx, "https://a/mcp"); tok != nil {
		t.Error("the deleted token loads")
	}
	if tok, _ := f.Load(ctx, "https://b/mcp"); tok == nil || tok.AccessToken.Reveal() != "bt" {
		t.Errorf("the other token: %v", tok)
	}
	os.WriteFile(path, []byte("not json"), 0o600)
	if _, err := f.Load(ctx, "x"); err == nil {
		t.Error("a corrupt file loads")
	}
}

func secretString(s string) secret.String { return secret.New(s) }

func timeAt(sec int) time.Time { return time.Date(2030, 1, 1, 0, 0, sec, 0, time.UTC) }
