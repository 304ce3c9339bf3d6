package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"time"
)

// clientAssertionType is the client_assertion_type of a JWT assertion.
const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// clientAssertion is a JWT that authenticates clientID to the
// authorization server audience (its issuer), signed with key: ES256 for a
// P-256 ECDSA key, RS256 for an RSA key.
func clientAssertion(key crypto.Signer, clientID, audience string) (string, error) {
	var alg string
	switch k := key.Public().(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return "", errors.New("oauth: an ECDSA signing key must be on P-256 (ES256)")
		}
		alg = "ES256"
	case *rsa.PublicKey:
		alg = "RS256"
	default:
		return "", errors.New("oauth: the signing key must be ECDSA P-256 or RSA")
	}
	now := time.Now()
	return signJWT(key, alg, map[string]any{"alg": alg, "typ": "JWT"}, map[string]any{
		"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Minute).Unix(), "jti": randomString(),
	})
}
