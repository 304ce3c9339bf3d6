//go:build !unix

package mcpclient

import "testing"

func waitGone(t *testing.T, pid int) { t.Skip("process checks need unix") }
