//go:build !linux

package ai

import "time"

// threadCPU cannot be read per thread here: the benchmark reports 0.
func threadCPU() time.Duration { return 0 }
