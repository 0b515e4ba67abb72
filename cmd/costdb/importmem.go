package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// An import's soft memory limit (docs/operations.md, "Memory"). An import
// is one transaction: at its peak the process holds what the transaction
// wrote, encoded, the store's pages for the commit and the records not yet
// written (handOver lets the others go); with the runtime's default
// GOGC=100 the heap grows to twice that before it is collected
// (docs/performance.md, "Memory: the serving process, the 1M-row import, the caches' bounds": 1M rows of one state, about 200 MB live, peak at
// 440 MB; they peaked at 800 MB when every record read was kept). A limit
// makes the collector work harder near it instead of growing past it.

// minImportMemoryLimit is the least limit an import gets by default.
const minImportMemoryLimit = 512 << 20

// importMemoryLimit resolves an import's --memory-limit: as the server's
// (memoryLimit), but "auto" without GOMEMLIMIT or a cgroup limit is the
// larger of minImportMemoryLimit and 1.5 times the input (inputBytes), so
// that an import whose records outgrow the minimum is not starved.
func importMemoryLimit(value string, env func(string) string, cgroups []string, files []string) (int64, error) {
	n, from, err := memoryLimit(value, env, cgroups)
	if err != nil || n > 0 || from != "no cgroup limit" {
		return n, err
	}
	return max(minImportMemoryLimit, inputBytes(files)/2*3), nil
}

// inputBytes is the size of the files an import reads, a compressed
// workbook or package counted at ten times its size (its sheets unzipped,
// as mmapForFiles counts them); a directory counts its files.
func inputBytes(files []string) int64 {
	var n int64
	add := func(path string, size int64) {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".xlsx", ".zip":
			n += 10 * size
		default:
			n += size
		}
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			add(f, st.Size())
			continue
		}
		_ = filepath.WalkDir(f, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					add(path, info.Size())
				}
			}
			return nil
		})
	}
	return n
}

// applyImportMemoryLimit sets an import's limit; restore sets the one
// before again (the command may run inside a longer process: its tests).
func applyImportMemoryLimit(value string, files []string) (restore func(), err error) {
	n, err := importMemoryLimit(value, os.Getenv, cgroupMemoryFiles, files)
	if err != nil || n == 0 {
		return func() {}, err
	}
	before := debug.SetMemoryLimit(n)
	return func() { debug.SetMemoryLimit(before) }, nil
}
