package toolreg

import "github.com/plainmcp/plainmcp/secret"

// secretMap is m with its values as secrets, as Env and Headers hold them.
func secretMap(m map[string]string) map[string]secret.String {
	out := make(map[string]secret.String, len(m))
	for k, v := range m {
		out[k] = secret.New(v)
	}
	return out
}
