package oauth

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

// printedForms is every way a program shows a value: fmt's verbs, log/slog's
// handlers and encoding/json.
func printedForms(v any) map[string]string {
	out := map[string]string{}
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		out[f] = fmt.Sprintf(f, v)
	}
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("m", "v", v)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("m", "v", v)
	out["slog text"], out["slog json"] = text.String(), js.String()
	b, err := json.Marshal(v)
	out["json"] = string(b)
	if err != nil {
		out["json"] = err.Error()
	}
	return out
}

func TestTokenAndConfigNeverPrintSecrets(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tok := &Token{AccessToken: secret.New("access-PLANTED"), RefreshToken: secret.New("refresh-PLANTED"),
		ClientSecret: secret.New("client-PLANTED"), Expiry: time.Now(), ClientID: "c"}
	cfg := Config{ServerURL: "https://mcp.example/", ClientID: "c", ClientSecret: secret.New("client-PLANTED"),
		SigningKey: secret.New[crypto.Signer](key), DPoPKey: secret.New[crypto.Signer](key),
		JWTBearerAssertion: func(context.Context, string) (secret.String, error) { return secret.New("assertion-PLANTED"), nil }}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	a.tok = tok
	x := &IDJAG{ClientSecret: secret.New("idp-PLANTED")}
	for name, v := range map[string]any{"token": tok, "token value": *tok, "config": cfg, "config pointer": &cfg,
		"authorizer": a, "idjag": x, "client": &clientInfo{secret: secret.New("client-PLANTED"), key: cfg.SigningKey}} {
		for how, text := range printedForms(v) {
			for _, s := range []string{"PLANTED", key.D.String(), key.D.Text(16), fmt.Sprintf("%x", "PLANTED")} {
				if strings.Contains(text, s) {
					t.Errorf("%s printed with %s shows a secret: %s", name, how, text)
				}
			}
		}
	}
}

// TestFileStoreKeepsRealValues: the file store writes the secrets
// themselves, not their printed form, in a file only its owner reads.
func TestFileStoreKeepsRealValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	ctx := context.Background()
	in := &Token{AccessToken: secret.New("access-REAL"), RefreshToken: secret.New("refresh-REAL"),
		ClientSecret: secret.New("client-REAL"), ClientID: "c", TokenEndpoint: "https://as.example/token"}
	if err := (&FileStore{Path: path}).Save(ctx, "https://mcp.example/", in); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"access-REAL", "refresh-REAL", "client-REAL"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the file lacks %q: %s", want, data)
		}
	}
	if bytes.Contains(data, []byte(secret.Placeholder)) {
		t.Errorf("the file holds the placeholder: %s", data)
	}
	out, err := (&FileStore{Path: path}).Load(ctx, "https://mcp.example/")
	if err != nil || out == nil {
		t.Fatalf("Load: %v %v", out, err)
	}
	if !out.AccessToken.Equal(in.AccessToken) || !out.RefreshToken.Equal(in.RefreshToken) || !out.ClientSecret.Equal(in.ClientSecret) {
		t.Error("the secrets loaded are not the ones saved")
	}
}
