package oauth

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzTokenFile feeds the token file reader any bytes: it loads, or
// fails with an error, and never panics; what it loads saves back and
// loads again the same.
func FuzzTokenFile(f *testing.F) {
	f.Add([]byte(`{"tokens": {"https://a/mcp": {"access_token": "at", "refresh_token": "rt", "obtained": "2030-01-01T00:00:00Z"}}, "clients": {"https://as http://127.0.0.1:5/callback": {"issuer": "https://as", "redirect_uri": "http://127.0.0.1:5/callback", "client_id": "c"}}}`))
	f.Add([]byte(`{"https://a/mcp": {"access_token": "at"}}`))
	f.Add([]byte(`{"tokens": {"https://a/mcp": {"access_token": "at", "token_type": "DPoP", "dpop_key": "AAAA"}}}`))
	f.Add([]byte(`{"tokens": null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "tokens.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s := &FileStore{Path: path}
		tok, err := s.Load(ctx, "https://a/mcp")
		s.LoadClient(ctx, "https://as", "http://127.0.0.1:5/callback")
		s.RedirectURLs(ctx)
		if err != nil || tok == nil {
			return
		}
		if err := s.Save(ctx, "https://a/mcp", tok); err != nil {
			t.Fatalf("saving what loaded: %v", err)
		}
		again, err := s.Load(ctx, "https://a/mcp")
		if err != nil || again == nil || !again.AccessToken.Equal(tok.AccessToken) || !again.RefreshToken.Equal(tok.RefreshToken) {
			t.Fatalf("loaded again: %v %v", again, err)
		}
	})
}
