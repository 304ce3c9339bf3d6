//go:build !unix

package mcpclient

import "time"

// processCPU is not measured here: the benchmarks report no CPU per call.
func processCPU() (time.Duration, bool) { return 0, false }
