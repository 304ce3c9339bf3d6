package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

func TestPrivateKeyJWT(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		alg string
		key crypto.Signer
	}{{"ES256", ec}, {"RS256", rk}} {
		t.Run(tc.alg, func(t *testing.T) {
			f := standard()
			newFake(t, f)
			a := f.authorizer(t, Config{ClientCredentials: true, ClientID: "svc", SigningKey: secret.New(tc.key)})
			if resp, err := f.call(a); err != nil || resp.StatusCode != http.StatusOK {
				t.Fatalf("got %v %v, want 200", resp, err)
			}
			form := f.tokenForms[0]
			if form.Get("client_assertion_type") != clientAssertionType || f.tokenAuthz[0] != "" {
				t.Fatalf("token request: got %v with Authorization %q", form, f.tokenAuthz[0])
			}
			parts := strings.Split(form.Get("client_assertion"), ".")
			if len(parts) != 3 {
				t.Fatalf("the assertion has %d parts, want 3", len(parts))
			}
			var header map[string]string
			var claims map[string]any
			decodeSegment(t, parts[0], &header)
			decodeSegment(t, parts[1], &claims)
			if header["alg"] != tc.alg {
				t.Errorf("alg: got %q, want %q", header["alg"], tc.alg)
			}
			if claims["iss"] != "svc" || claims["sub"] != "svc" || claims["aud"] != f.issuer() || claims["jti"] == "" {
				t.Errorf("claims: got %v, want iss and sub svc, aud %s, a jti", claims, f.issuer())
			}
			sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
			sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
			var ok bool
			if tc.alg == "ES256" {
				ok = len(sig) == 64 && ecdsa.Verify(&ec.PublicKey, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:]))
			} else {
				ok = rsa.VerifyPKCS1v15(&rk.PublicKey, crypto.SHA256, sum[:], sig) == nil
			}
			if !ok {
				t.Error("the assertion's signature does not verify")
			}
		})
	}
}

func decodeSegment(t *testing.T, seg string, v any) {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		t.Fatalf("decoding a JWT segment: %v", err)
	}
}
