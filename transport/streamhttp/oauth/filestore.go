package oauth

import (
	"context"
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

// FileStore is a [TokenStore] in one JSON file, readable and writable by
// its owner only (mode 0600, in a directory it creates with mode 0700),
// for a command-line host whose tokens outlive a run. It is safe for
// concurrent use within a process; each Save rewrites the file through a
// temporary file and a rename, so a reader never sees half a file.
type FileStore struct {
	Path string

	mu sync.Mutex
}

// fileToken is a Token as the file holds it.
type fileToken struct {
	AccessToken   string    `json:"access_token"`
	RefreshToken  string    `json:"refresh_token,omitempty"`
	Expiry        time.Time `json:"expiry,omitzero"`
	Scope         string    `json:"scope,omitempty"`
	Type          string    `json:"token_type,omitempty"`
	Issuer        string    `json:"issuer,omitempty"`
	TokenEndpoint string    `json:"token_endpoint,omitempty"`
	Resource      string    `json:"resource,omitempty"`
	ClientID      string    `json:"client_id,omitempty"`
	ClientSecret  string    `json:"client_secret,omitempty"`
	ClientAuth    string    `json:"token_endpoint_auth_method,omitempty"`
}

// read returns the file's tokens; a missing file holds none.
func (f *FileStore) read() (map[string]fileToken, error) {
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]fileToken{}, nil
	}
	if err != nil {
		return nil, err
	}
	m := map[string]fileToken{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("oauth: the token file %s is not a JSON object of tokens", f.Path)
	}
	return m, nil
}

func (f *FileStore) write(m map[string]fileToken) error {
	if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(m, "", "  ")
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

// Load implements [TokenStore].
func (f *FileStore) Load(_ context.Context, key string) (*Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return nil, err
	}
	t, ok := m[key]
	if !ok {
		return nil, nil
	}
	return &Token{AccessToken: secret.New(t.AccessToken), RefreshToken: secret.New(t.RefreshToken), Expiry: t.Expiry, Scope: t.Scope, Type: t.Type,
		Issuer: t.Issuer, TokenEndpoint: t.TokenEndpoint, Resource: t.Resource,
		ClientID: t.ClientID, ClientSecret: secret.New(t.ClientSecret), ClientAuth: t.ClientAuth}, nil
}

// Save implements [TokenStore].
func (f *FileStore) Save(_ context.Context, key string, tok *Token) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return err
	}
	m[key] = fileToken{AccessToken: tok.AccessToken.Reveal(), RefreshToken: tok.RefreshToken.Reveal(), Expiry: tok.Expiry, Scope: tok.Scope, Type: tok.Type,
		Issuer: tok.Issuer, TokenEndpoint: tok.TokenEndpoint, Resource: tok.Resource,
		ClientID: tok.ClientID, ClientSecret: tok.ClientSecret.Reveal(), ClientAuth: tok.ClientAuth}
	return f.write(m)
}

// Delete removes the token stored under key, reporting whether there was
// one.
func (f *FileStore) Delete(_ context.Context, key string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, err := f.read()
	if err != nil {
		return false, err
	}
	if _, ok := m[key]; !ok {
		return false, nil
	}
	delete(m, key)
	return true, f.write(m)
}
