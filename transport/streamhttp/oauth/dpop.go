package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"net/url"
	"slices"
	"time"
)

// dpopAlg is the algorithm of the DPoP proofs the client signs.
const dpopAlg = "ES256"

// dpopKeyFor is the key that binds the tokens of the authorization
// server m describes for the resource prm describes (nil when unknown),
// or nil for Bearer tokens. Tokens are DPoP-bound (RFC 9449) only when
// both sides support it: the config gave a DPoP key, or the server spoke
// DPoP (a DPoP challenge, or dpop_* fields in its resource metadata) and
// the authorization server advertises ES256 among its
// dpop_signing_alg_values_supported. A token bound where the resource
// server takes Bearer alone would be refused at every request. The key
// is new for each authorization and kept with its tokens.
func (a *Authorizer) dpopKeyFor(m *serverMetadata, prm *resourceMetadata) (crypto.Signer, error) {
	if !a.cfg.DPoPKey.IsZero() {
		return a.cfg.DPoPKey.Reveal(), nil
	}
	a.mu.Lock()
	rs := a.rsDPoP
	a.mu.Unlock()
	if prm != nil && (len(prm.DPoPSigningAlgValuesSupported) > 0 || prm.DPoPBoundAccessTokensRequired) {
		rs = true
	}
	if !rs || !slices.Contains(m.DPoPSigningAlgValuesSupported, dpopAlg) {
		return nil, nil
	}
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, errors.New("oauth: making the DPoP key failed")
	}
	return k, nil
}

// proof is a DPoP proof (RFC 9449 section 4.2) signed with key for a
// request with method and target: htu is target without its query and
// fragment; ath, when accessToken is set, its base64url SHA-256; nonce,
// when set, the server's.
func proof(key crypto.Signer, method string, target *url.URL, accessToken, nonce string) (string, error) {
	if key == nil {
		return "", errors.New("oauth: a DPoP-bound token without its key")
	}
	jwk, alg, err := publicJWK(key.Public())
	if err != nil {
		return "", err
	}
	htu := *target
	htu.RawQuery, htu.ForceQuery, htu.Fragment, htu.RawFragment, htu.User = "", false, "", "", nil
	claims := map[string]any{
		"jti": randomString(),
		"htm": method,
		"htu": htu.String(),
		"iat": time.Now().Unix(),
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	return signJWT(key, alg, map[string]any{"typ": "dpop+jwt", "alg": alg, "jwk": jwk}, claims)
}

// publicJWK is pub as a JSON Web Key (RFC 7517) and the JWS algorithm
// for it: ES256 for P-256, RS256 for RSA.
func publicJWK(pub crypto.PublicKey) (map[string]string, string, error) {
	enc := base64.RawURLEncoding.EncodeToString
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return nil, "", errors.New("oauth: an ECDSA key must be on P-256 (ES256)")
		}
		e, err := k.ECDH()
		if err != nil {
			return nil, "", errors.New("oauth: the ECDSA key is invalid")
		}
		b := e.Bytes() // 0x04, then x and y, 32 bytes each
		return map[string]string{"kty": "EC", "crv": "P-256", "x": enc(b[1:33]), "y": enc(b[33:])}, "ES256", nil
	case *rsa.PublicKey:
		return map[string]string{"kty": "RSA", "n": enc(k.N.Bytes()), "e": enc(big.NewInt(int64(k.E)).Bytes())}, "RS256", nil
	}
	return nil, "", errors.New("oauth: the key must be ECDSA P-256 or RSA")
}

// signJWT is the compact JWS of claims under header, signed with key by
// alg (ES256 or RS256).
func signJWT(key crypto.Signer, alg string, header, claims map[string]any) (string, error) {
	h, err := json.Marshal(header)
	if err != nil {
		return "", err
	}
	c, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(c)
	sum := sha256.Sum256([]byte(input))
	sig, err := key.Sign(rand.Reader, sum[:], crypto.SHA256)
	if err != nil {
		return "", errors.New("oauth: signing a JWT failed")
	}
	if alg == "ES256" {
		// ECDSA signers give ASN.1; JWS wants r and s as two 32-byte
		// big-endian numbers.
		var rs struct{ R, S *big.Int }
		if _, err := asn1.Unmarshal(sig, &rs); err != nil {
			return "", errors.New("oauth: the ECDSA signer returned a malformed signature")
		}
		sig = make([]byte, 64)
		rs.R.FillBytes(sig[:32])
		rs.S.FillBytes(sig[32:])
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}
