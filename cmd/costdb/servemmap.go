package main

import (
	"os"
	"runtime"
	"strconv"
)

// serveMmapSize is the size a server maps its bbolt file at from the start
// (boltstore.Options.MmapSize, bbolt's InitialMmapSize): the file's size
// doubled, rounded up to a whole GiB, at least 1 GiB. bbolt otherwise maps
// the file at the next power of two above it and maps it again whenever a
// write transaction grows past that; remapping waits for every read
// transaction to end and holds new ones back meanwhile, and, within a
// transaction, copies everything it wrote so far onto the heap. An import
// through the server (costdb import while it runs) grew a 100 MB file
// through five remaps; with the headroom it grows to twice its size
// without one (docs/performance.md, "Memory: the serving process, the 1M-row import, the caches' bounds"). The mapping is address space, not
// memory: pages count in the resident set only once read. Not on Windows,
// where bbolt grows the file itself to the mapping's size, nor on 32-bit
// platforms, whose address space is too small for the headroom.
func serveMmapSize(path string) int {
	if runtime.GOOS == "windows" || strconv.IntSize == 32 {
		return 0
	}
	var size int64
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	const gib = 1 << 30
	return int(max(gib, (2*size+gib-1)/gib*gib))
}
