//go:build memprofile

package main

// A build for measuring memory (docs/performance.md, "Memory: the serving process, the 1M-row import, the caches' bounds"), not the shipped one:
//
//	go build -tags memprofile -o costdb-prof ./cmd/costdb
//
// COSTDB_PPROF_ADDR=127.0.0.1:6060 serves net/http/pprof there (heap
// profiles of a running server: go tool pprof http://…/debug/pprof/heap).
// COSTDB_PEAK_PROFILE=FILE writes the heap profile to FILE each time the
// heap in use passes its previous peak by 5% (so the file ends as the
// profile nearest the process's peak), and logs the peak with the time
// since start to stderr.

import (
	"fmt"
	"net/http"
	_ "net/http/pprof" // the profiles, on COSTDB_PPROF_ADDR only
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

func init() {
	if addr := os.Getenv("COSTDB_PPROF_ADDR"); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
	if file := os.Getenv("COSTDB_PEAK_PROFILE"); file != "" {
		go peakProfiles(file)
	}
}

func peakProfiles(file string) {
	start := time.Now()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/total:bytes"}}
	var peak uint64
	for range time.Tick(50 * time.Millisecond) {
		metrics.Read(s)
		heap := s[0].Value.Uint64()
		if heap < peak+peak/20 {
			continue
		}
		peak = heap
		runtime.GC() // the profile's in-use figures are as of the last collection
		f, err := os.Create(file)
		if err != nil {
			continue
		}
		_ = pprof.Lookup("heap").WriteTo(f, 0)
		_ = f.Close()
		fmt.Fprintf(os.Stderr, "memprofile: heap objects %d MB, runtime total %d MB at %.1fs\n",
			heap>>20, s[1].Value.Uint64()>>20, time.Since(start).Seconds())
	}
}
