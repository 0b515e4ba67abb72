package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestConnLimitFlags: --max-conns and --max-conns-per-client by flag or
// environment, and the caps derived from the descriptor limit when they
// are not given.
func TestConnLimitFlags(t *testing.T) {
	d := NewMain(io.Discard, io.Discard)
	if err := d.ParseFlags(nil); err != nil {
		t.Fatal(err)
	}
	if d.MaxConns != 0 || d.MaxConnsPerClient != 0 {
		t.Errorf("defaults %d/%d, want 0/0 (derived)", d.MaxConns, d.MaxConnsPerClient)
	}
	for _, c := range []struct {
		nofile         uint64
		max, perClient int
	}{
		{20000, 19744, 1974},
		{1024, 768, 76},
		{300, 150, 64},
		{100, 50, 50},
		{1 << 40, 65536, 6553},
		{0, 4096, 409},
	} {
		got := d.connLimits(c.nofile)
		if got.Max != c.max || got.PerClient != c.perClient {
			t.Errorf("descriptor limit %d: caps %d/%d, want %d/%d", c.nofile, got.Max, got.PerClient, c.max, c.perClient)
		}
	}

	t.Setenv("COSTDB_MAX_CONNS_PER_CLIENT", "30")
	t.Setenv("COSTDB_TRUSTED_PROXIES", "10.0.0.1")
	m := NewMain(io.Discard, io.Discard)
	if err := m.ParseFlags([]string{"--max-conns", "500"}); err != nil {
		t.Fatal(err)
	}
	got := m.connLimits(20000)
	var proxies []string
	for _, p := range got.TrustedProxies {
		proxies = append(proxies, p.String())
	}
	if got.Max != 500 || got.PerClient != 30 || !cmp.Equal(proxies, []string{"10.0.0.1/32"}) {
		t.Errorf("caps by flag and environment: %d/%d, proxies %v; want 500/30, [10.0.0.1/32]", got.Max, got.PerClient, proxies)
	}
}

// TestServeCapsConnections: the server started with --max-conns holds no
// more connections than that: idle keep-alive ones beyond it are closed,
// and a new client is served; the caps are logged.
func TestServeCapsConnections(t *testing.T) {
	var logs bytes.Buffer
	m := NewMain(io.Discard, &logs)
	db := filepath.Join(t.TempDir(), "c.db")
	if err := m.ParseFlags([]string{"--addr", "127.0.0.1:0", "--db", db, "--admin-addr", "off", "--max-conns", "4", "--max-conns-per-client", "4"}); err != nil {
		t.Fatal(err)
	}
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	addr := strings.TrimPrefix(m.URL(), "http://")
	type conn struct {
		c net.Conn
		r *bufio.Reader
	}
	get := func(k conn) bool {
		if _, err := io.WriteString(k.c, "GET /healthz HTTP/1.1\r\nHost: costdb\r\n\r\n"); err != nil {
			return false
		}
		resp, err := http.ReadResponse(k.r, nil)
		if err != nil {
			return false
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return err == nil && resp.StatusCode == http.StatusOK
	}
	var conns []conn
	for i := 0; i < 10; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		k := conn{c, bufio.NewReader(c)}
		if !get(k) {
			t.Fatalf("connection %d was not served", i)
		}
		conns = append(conns, k)
	}
	open := 0
	for _, k := range conns {
		if get(k) {
			open++
		}
	}
	if open > 4 {
		t.Errorf("%d connections open, --max-conns is 4", open)
	}
	if r, err := http.Get(m.URL() + "/healthz"); err != nil || r.StatusCode != http.StatusOK {
		t.Errorf("a new client: %v, %v; want 200", r, err)
	} else {
		r.Body.Close()
	}
	if !strings.Contains(logs.String(), "max_conns=4") {
		t.Errorf("the caps are not logged:\n%s", logs.String())
	}
}

// TestIdleFloodUnderDescriptorLimit is the flood against the real
// process: serve started with a descriptor limit of 300 (hard 600), so it
// raises it to 600 and derives its caps (344 in all, 64 per client); 700
// idle keep-alive connections from one address, more than the limit,
// then 64 from each of six more (384, over the total cap): a normal client
// from yet another address is still served.
func TestIdleFloodUnderDescriptorLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := builtBinary(t)
	db := filepath.Join(t.TempDir(), "c.db")
	cmd := exec.Command("sh", "-c", `ulimit -Sn 300 && ulimit -Hn 600 && exec "$0" serve --addr 127.0.0.1:0 --db "$1" --admin-addr off`, bin, db)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// The log up to the listening line (the caps are logged before it).
	started := make(chan string, 1)
	go func() {
		var logs strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logs.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), `msg="costdb listening"`) {
				started <- logs.String()
				break
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	var logs string
	select {
	case logs = <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not start")
	}
	if !strings.Contains(logs, "max_conns=344 max_conns_per_client=64 descriptor_limit=600") {
		t.Errorf("caps not derived from the raised limit:\n%s", logs)
	}
	m := regexp.MustCompile(`msg="costdb listening" addr=(\S+)`).FindStringSubmatch(logs)
	if m == nil {
		t.Fatalf("no address in the log:\n%s", logs)
	}
	a := m[1]
	idle := func(from string, n int) {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		for i := 0; i < n; i++ {
			c, err := d.Dial("tcp", a)
			if err != nil {
				t.Fatalf("flood connection %d from %s: %v", i, from, err)
			}
			t.Cleanup(func() { c.Close() })
			// One request; the answer is left unread, the connection idle.
			_, _ = io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: costdb\r\n\r\n")
		}
	}
	normal := func(from string) {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		}}
		defer tr.CloseIdleConnections()
		// Without the caps the request hangs (the server cannot accept):
		// the timeout turns that into a failure, it times nothing.
		resp, err := (&http.Client{Transport: tr, Timeout: 30 * time.Second}).Get("http://" + a + "/healthz")
		if err != nil {
			t.Fatalf("normal client from %s: %v", from, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("normal client from %s: %d, want 200", from, resp.StatusCode)
		}
	}
	idle("127.0.0.1", 700)
	normal("127.0.0.2")
	for i := 10; i < 16; i++ {
		idle("127.0.0."+strconv.Itoa(i), 64)
	}
	normal("127.0.0.3")
}
