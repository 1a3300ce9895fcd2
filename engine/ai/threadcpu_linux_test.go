package ai

import (
	"syscall"
	"time"
)

// threadCPU is the CPU time the calling OS thread has used (Linux
// RUSAGE_THREAD), or 0 if it cannot be read. The think-cap benchmark locks
// each player to its thread, so that the CPU time of a move sets apart the
// work of a think from the time it waited for a core.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
