package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/costdb/costdb/adapters/pgstore/pgtest"
)

// TestMain runs the tests, then removes the binary they built and stops the
// PostgreSQL cluster, when they started one.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	pgtest.Stop()
	os.Exit(code)
}

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binOut  []byte
	binErr  error
)

// builtBinary returns the costdb binary for the tests that run the real
// process (go build -o), built once per test binary: each test runs it on
// a database of its own.
func builtBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "costdb-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "costdb")
		binOut, binErr = exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binOut)
	}
	return binPath
}
