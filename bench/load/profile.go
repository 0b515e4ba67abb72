package main

import (
	"flag"
	"log"
	"os"
	"runtime/pprof"
)

var cpuProfile = flag.String("cpuprofile", "", "write a CPU profile of the whole run (service, bare handler and load generator in this process; with -only p…, from the end of the generation) to the file")

// startProfile starts the CPU profile asked for by -cpuprofile and returns
// what stops it.
func startProfile() func() {
	if *cpuProfile == "" {
		return func() {}
	}
	f, err := os.Create(*cpuProfile)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}
