//go:build !unix

package streamhttp

import "time"

// processCPU is not measured here: the CPU rows of the table benchmarks
// are left out.
func processCPU() (time.Duration, bool) { return 0, false }
