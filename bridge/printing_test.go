package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/plainmcp/plainmcp/secret"
)

// An adapter holding a planted key prints without it through every way Go
// shows a value: fmt's verbs, JSON, slog's handlers, and the errors the
// adapter returns for a refused key, a provider that echoes it, a
// redirect carrying it and a body that does not parse.
func TestKeyNeverPrinted(t *testing.T) {
	const planted = "sk-planted-4242424242424242"
	models := []any{
		&OpenAI{APIKey: secret.New(planted), Model: "m"},
		OpenAI{APIKey: secret.New(planted), Model: "m"},
		&Anthropic{APIKey: secret.New(planted), Model: "m"},
		Anthropic{APIKey: secret.New(planted), Model: "m"},
	}
	var shown []string
	for _, m := range models {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			shown = append(shown, fmt.Sprintf(verb, m))
		}
		j, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		shown = append(shown, string(j))
		var logs bytes.Buffer
		slog.New(slog.NewJSONHandler(&logs, nil)).Info("model", "m", m)
		slog.New(slog.NewTextHandler(&logs, nil)).Info("model", "m", m)
		shown = append(shown, logs.String())
	}
	for _, rep := range []reply{
		{status: http.StatusUnauthorized, body: `{"error":{"message":"bad key ` + planted + `"}}`},
		{status: http.StatusInternalServerError, body: "panic: key=" + planted[:12]}, // the start of it, cut
		{status: http.StatusInternalServerError, body: `{"error":{"message":"echo ` + planted + `"}}`},
		{body: `{"oops ` + planted},
	} {
		f := newFake(t, rep)
		for _, m := range []Model{
			&OpenAI{APIKey: secret.New(planted), BaseURL: f.URL, HTTP: HTTPOptions{MaxRetries: -1}},
			&Anthropic{APIKey: secret.New(planted), BaseURL: f.URL, HTTP: HTTPOptions{MaxRetries: -1}},
		} {
			_, err := m.CreateMessage(context.Background(), hi())
			if err == nil {
				t.Fatalf("%+v: got no error", rep)
			}
			shown = append(shown, err.Error(), fmt.Sprintf("%+v %#v", err, err))
		}
	}
	for _, s := range shown {
		if strings.Contains(s, planted) || strings.Contains(s, planted[:12]) {
			t.Errorf("the key is shown: %s", s)
		}
	}
}
