package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/plainmcp/plainmcp/bridge"
	"github.com/plainmcp/plainmcp/mcpclient"
)

// maxConversationBytes bounds a --continue file: a conversation is the
// model's whole context, which no provider takes past a few MiB.
const maxConversationBytes = 64 << 20

// loadConversation reads the conversation of a --continue file (what ask
// --json prints, and what ask saves there): its messages. A file that
// does not exist yet starts a new conversation; "" is none.
func loadConversation(path string) ([]mcpclient.SamplingMessage, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConversationBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConversationBytes {
		return nil, fmt.Errorf("--continue %s: larger than %d MiB", path, maxConversationBytes>>20)
	}
	var tr bridge.Transcript
	if err := json.Unmarshal(data, &tr); err != nil {
		return nil, usagef("--continue %s: not a transcript of mcpc ask: %v", path, err)
	}
	for i, m := range tr.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return nil, usagef("--continue %s: message %d has role %q", path, i, m.Role)
		}
	}
	return tr.Messages, nil
}

// saveConversation writes tr to a --continue file, whole or not at all
// (a new file renamed over the old), readable by its owner alone: a
// conversation may hold anything the tools returned.
func saveConversation(path string, tr *bridge.Transcript) error {
	if path == "" || tr == nil {
		return nil
	}
	data, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".mcpc-conversation-*")
	if err != nil {
		return fmt.Errorf("saving the conversation: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("saving the conversation: %w", err)
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("saving the conversation: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving the conversation: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving the conversation: %w", err)
	}
	return nil
}
