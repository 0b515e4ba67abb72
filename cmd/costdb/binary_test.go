package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

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

// startBinary starts the built binary with args (a serve command with
// --addr 127.0.0.1:0) and returns the process and the base URL of the API
// listener, read from its log.
func startBinary(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, _ := cmd.StderrPipe()
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	var once sync.Once
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`costdb listening" addr=(\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				once.Do(func() { addr <- m[1] })
			}
		}
	}()
	select {
	case a := <-addr:
		return cmd, "http://" + a
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("server did not start")
	}
	return nil, ""
}
