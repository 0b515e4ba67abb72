package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// The soft memory limit of a serving process (docs/operations.md,
// "Memory"): with it the Go runtime collects garbage harder as the heap
// nears the limit instead of growing past it, so a container's limit is met
// by work done, not by the kernel killing the process.

// cgroupMemoryFiles are where the process's cgroup states its memory limit
// (v2, then v1).
var cgroupMemoryFiles = []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}

// memoryLimit resolves --memory-limit: "auto" is 90% of the cgroup's limit
// when there is one and GOMEMLIMIT is not set (the runtime has applied
// that), else none; "off" is none; otherwise a size (bytes, or with KiB,
// MiB, GiB, TiB, KB, MB, GB). It returns the limit (0: none set here) and
// where it comes from.
func memoryLimit(value string, env func(string) string, files []string) (int64, string, error) {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "off", "none":
		return 0, "off", nil
	case "", "auto":
		if env("GOMEMLIMIT") != "" {
			return 0, "GOMEMLIMIT", nil
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			s := strings.TrimSpace(string(b))
			n, err := strconv.ParseInt(s, 10, 64)
			if s == "max" || err != nil || n <= 0 || n >= 1<<60 { // unlimited (v1 writes a huge number)
				return 0, "no cgroup limit", nil
			}
			return n / 10 * 9, "90% of the cgroup limit " + f, nil
		}
		return 0, "no cgroup limit", nil
	}
	n, err := parseSize(value)
	if err != nil {
		return 0, "", fmt.Errorf("--memory-limit %q: %v (a size such as 800MiB, auto or off)", value, err)
	}
	return n, "--memory-limit", nil
}

// parseSize reads a size: bytes, or a number with a unit.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   float64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) || f*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("not a positive size")
	}
	if f*mult < 64<<20 {
		return 0, fmt.Errorf("below 64 MiB, too small to serve")
	}
	return int64(f * mult), nil
}

// applyMemoryLimit sets the runtime's limit --memory-limit resolves to and
// logs it.
func (m *Main) applyMemoryLimit() error {
	n, from, err := memoryLimit(m.MemoryLimit, os.Getenv, cgroupMemoryFiles)
	if err != nil {
		return err
	}
	if n > 0 {
		debug.SetMemoryLimit(n)
	}
	limit := debug.SetMemoryLimit(-1)
	shown := "none"
	if limit < math.MaxInt64 {
		shown = strconv.FormatInt(limit>>20, 10) + " MiB"
	}
	m.log.Info("memory limit", "limit", shown, "from", from)
	return nil
}
