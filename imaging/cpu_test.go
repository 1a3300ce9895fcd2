package imaging

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is this process's user+system CPU time. The benchmarks report it
// per operation beside wall time because the machine they run on is shared:
// under load, ns/op measures the queue for a core, cpu-ns/op the work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}
