package transport

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// environ builds the server's environment: the safe set of ours (or all
// of it), then extra.
func environ(extra []string, inherit bool) ([]string, error) {
	for _, kv := range extra {
		if strings.IndexByte(kv, '=') <= 0 {
			return nil, fmt.Errorf("env entry %q is not KEY=VALUE", kv)
		}
	}
	// Never nil: a nil Env would make exec pass on all of ours.
	env := []string{}
	if inherit {
		env = append(env, os.Environ()...)
	} else {
		safe := safeEnv()
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			if slices.ContainsFunc(safe, func(s string) bool { return sameEnvName(s, name) }) {
				env = append(env, kv)
			}
		}
	}
	return append(env, extra...), nil
}
