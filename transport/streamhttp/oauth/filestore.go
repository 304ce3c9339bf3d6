package oauth

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/plainmcp/plainmcp/secret"
)

// FileStore is a [TokenStore], a [Locker] and a [ClientStore] in one JSON
// file, readable and writable by its owner only (mode 0600, in a
// directory it creates with mode 0700), for a command-line host whose
// tokens outlive a run. It holds each server's token with what
// refreshing it needs (a DPoP-bound token's private key too) and the
// clients registered at each authorization server.
//
// It is safe for concurrent use, and for use by several processes at
// once: a lock file beside it (Path + ".lock", created exclusively, taken
// over when older than 30 seconds, so a crashed process does not hold it
// for ever) serializes every change, each change rereads the file, and
// each write goes through a temporary file and a rename, so a reader
// never sees half a file. A token obtained before the one stored is not
// saved over it.
type FileStore struct {
	Path string

	mu     sync.Mutex // the file, within the process
	lock   keyLock    // the lock file, within the process
	logins loginLocks // one login with the user per key, within the process
}

// loginLock implements loginLocker.
func (f *FileStore) loginLock(ctx context.Context, key string) (func(), error) {
	return f.logins.lock(ctx, key)
}

// fileData is the file: tokens by server URL, clients by issuer and
// redirect URL.
type fileData struct {
	Tokens  map[string]fileToken  `json:"tokens"`
	Clients map[string]fileClient `json:"clients,omitempty"`
}

// fileToken is a Token as the file holds it.
type fileToken struct {
	AccessToken   string    `json:"access_token"`
	RefreshToken  string    `json:"refresh_token,omitempty"`
	Expiry        time.Time `json:"expiry,omitzero"`
	Obtained      time.Time `json:"obtained,omitzero"`
	Scope         string    `json:"scope,omitempty"`
	Type          string    `json:"token_type,omitempty"`
	DPoPKey       string    `json:"dpop_key,omitempty"` // PKCS #8, base64
	Issuer        string    `json:"issuer,omitempty"`
	TokenEndpoint string    `json:"token_endpoint,omitempty"`
	Revocation    string    `json:"revocation_endpoint,omitempty"`
	Resource      string    `json:"resource,omitempty"`
	ClientID      string    `json:"client_id,omitempty"`
	ClientSecret  string    `json:"client_secret,omitempty"`
	ClientAuth    string    `json:"token_endpoint_auth_method,omitempty"`
}

// fileClient is a Client as the file holds it.
type fileClient struct {
	Issuer      string    `json:"issuer"`
	RedirectURL string    `json:"redirect_uri"`
	ID          string    `json:"client_id"`
	Secret      string    `json:"client_secret,omitempty"`
	AuthMethod  string    `json:"token_endpoint_auth_method,omitempty"`
	Registered  time.Time `json:"registered,omitzero"`
}

// read returns the file's contents; a missing file holds nothing. A file
// of an earlier version, one object of tokens by server URL, is read as
// such.
func (f *FileStore) read() (*fileData, error) {
	d := &fileData{Tokens: map[string]fileToken{}, Clients: map[string]fileClient{}}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("oauth: the token file %s is not a JSON object", f.Path)
	}
	if _, ok := probe["tokens"]; !ok && len(probe) > 0 {
		if json.Unmarshal(data, &d.Tokens) != nil {
			return nil, fmt.Errorf("oauth: the token file %s is not a JSON object of tokens", f.Path)
		}
		return d, nil
	}
	if err := json.Unmarshal(data, d); err != nil {
		return nil, fmt.Errorf("oauth: the token file %s is malformed", f.Path)
	}
	if d.Tokens == nil {
		d.Tokens = map[string]fileToken{}
	}
	if d.Clients == nil {
		d.Clients = map[string]fileClient{}
	}
	return d, nil
}

func (f *FileStore) write(d *fileData) error {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), ".tokens-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is there
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.Path)
}

// change runs fn on the file's contents and writes them back if fn says
// so, holding the lock unless ctx is a Lock's.
func (f *FileStore) change(ctx context.Context, fn func(d *fileData) (write bool)) error {
	unlock, err := f.acquire(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	d, err := f.read()
	if err != nil {
		return err
	}
	if !fn(d) {
		return nil
	}
	return f.write(d)
}

// Load implements [TokenStore].
func (f *FileStore) Load(_ context.Context, key string) (*Token, error) {
	f.mu.Lock()
	d, err := f.read()
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	t, ok := d.Tokens[key]
	if !ok {
		return nil, nil
	}
	tok := &Token{AccessToken: secret.New(t.AccessToken), RefreshToken: secret.New(t.RefreshToken), Expiry: t.Expiry,
		Obtained: t.Obtained, Scope: t.Scope, Type: t.Type, Issuer: t.Issuer, TokenEndpoint: t.TokenEndpoint,
		RevocationEndpoint: t.Revocation, Resource: t.Resource, ClientID: t.ClientID,
		ClientSecret: secret.New(t.ClientSecret), ClientAuth: t.ClientAuth}
	if t.DPoPKey != "" {
		der, err := base64.StdEncoding.DecodeString(t.DPoPKey)
		k, perr := x509.ParsePKCS8PrivateKey(der)
		s, ok := k.(crypto.Signer)
		if err != nil || perr != nil || !ok {
			return nil, fmt.Errorf("oauth: the token file %s holds a malformed DPoP key", f.Path)
		}
		tok.DPoPKey = secret.New(s)
	}
	return tok, nil
}

// Save implements [TokenStore].
func (f *FileStore) Save(ctx context.Context, key string, tok *Token) error {
	t := fileToken{AccessToken: tok.AccessToken.Reveal(), RefreshToken: tok.RefreshToken.Reveal(), Expiry: tok.Expiry,
		Obtained: tok.Obtained, Scope: tok.Scope, Type: tok.Type, Issuer: tok.Issuer, TokenEndpoint: tok.TokenEndpoint,
		Revocation: tok.RevocationEndpoint, Resource: tok.Resource, ClientID: tok.ClientID,
		ClientSecret: tok.ClientSecret.Reveal(), ClientAuth: tok.ClientAuth}
	if k := tok.DPoPKey.Reveal(); k != nil {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			return errors.New("oauth: the DPoP key cannot be stored")
		}
		t.DPoPKey = base64.StdEncoding.EncodeToString(der)
	}
	return f.change(ctx, func(d *fileData) bool {
		if old, ok := d.Tokens[key]; ok && old.Obtained.After(t.Obtained) && !t.Obtained.IsZero() {
			return false // another process stored a newer one meanwhile
		}
		d.Tokens[key] = t
		return true
	})
}

// Delete removes the token stored under key, reporting whether there was
// one.
func (f *FileStore) Delete(ctx context.Context, key string) (bool, error) {
	found := false
	err := f.change(ctx, func(d *fileData) bool {
		_, found = d.Tokens[key]
		delete(d.Tokens, key)
		return found
	})
	return found, err
}

// LoadClient implements [ClientStore].
func (f *FileStore) LoadClient(_ context.Context, issuer, redirectURL string) (*Client, error) {
	f.mu.Lock()
	d, err := f.read()
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	c, ok := d.Clients[issuer+" "+redirectURL]
	if !ok {
		return nil, nil
	}
	return &Client{ID: c.ID, Secret: secret.New(c.Secret), AuthMethod: c.AuthMethod, Registered: c.Registered}, nil
}

// SaveClient implements [ClientStore].
func (f *FileStore) SaveClient(ctx context.Context, issuer, redirectURL string, c *Client) error {
	fc := fileClient{Issuer: issuer, RedirectURL: redirectURL, ID: c.ID, Secret: c.Secret.Reveal(), AuthMethod: c.AuthMethod, Registered: c.Registered}
	return f.change(ctx, func(d *fileData) bool {
		d.Clients[issuer+" "+redirectURL] = fc
		return true
	})
}

// RedirectURLs lists the redirect URLs of the stored clients, the most
// recently registered first: a host that listens on a port of its choice
// listens where a client is registered already, and reuses it.
func (f *FileStore) RedirectURLs(_ context.Context) ([]string, error) {
	f.mu.Lock()
	d, err := f.read()
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	cs := make([]fileClient, 0, len(d.Clients))
	for _, c := range d.Clients {
		cs = append(cs, c)
	}
	slicesSortByRegistered(cs)
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.RedirectURL)
	}
	return out, nil
}
