package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// runHealthcheck runs "costdb healthcheck": it asks the server on --addr
// for /readyz and exits 0 when ready, 1 otherwise. It is the container's
// HEALTHCHECK, which has no curl.
func runHealthcheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("costdb healthcheck", stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address the server listens on; a wildcard host is asked on 127.0.0.1")
	timeout := fs.Duration("timeout", 5*time.Second, "time to wait for the answer")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	host, port, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v", *addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+net.JoinHostPort(host, port)+"/readyz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("not ready: %s", resp.Status)
	}
	fmt.Fprintln(stdout, "ready")
	return nil
}
