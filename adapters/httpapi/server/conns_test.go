package server_test

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/server"
)

// limited serves h on 127.0.0.1 with the connection limits l and returns
// its address.
func limited(t *testing.T, h http.Handler, l server.ConnLimits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(ln.Addr().String(), h, server.DefaultTimeouts)
	lim := server.Limit(ln, srv, l)
	go func() { _ = srv.Serve(lim) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// keepAlive is a client connection from a chosen loopback address that
// makes requests one after another on the same connection.
type keepAlive struct {
	c net.Conn
	r *bufio.Reader
}

// dialFrom connects to addr from the loopback address from (127.0.0.0/8 is
// all loopback on Linux, so each is another client address).
func dialFrom(t *testing.T, from, addr string) *keepAlive {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &keepAlive{c: c, r: bufio.NewReader(c)}
}

// get asks for /healthz and returns the status, or an error when the
// connection was closed.
func (k *keepAlive) get() (int, error) {
	if _, err := io.WriteString(k.c, "GET /healthz HTTP/1.1\r\nHost: costdb\r\n\r\n"); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(k.r, nil)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, err
}

// flood opens n keep-alive connections from each address, each making
// one request and then staying idle, and returns them.
func flood(t *testing.T, addr string, n int, from ...string) []*keepAlive {
	t.Helper()
	var out []*keepAlive
	for _, f := range from {
		for i := 0; i < n; i++ {
			k := dialFrom(t, f, addr)
			if st, err := k.get(); err != nil || st != http.StatusOK {
				t.Fatalf("flood connection %d from %s: %d, %v", i, f, st, err)
			}
			out = append(out, k)
		}
	}
	return out
}

// alive counts the connections that still answer a request.
func alive(ks []*keepAlive) int {
	n := 0
	for _, k := range ks {
		if st, err := k.get(); err == nil && st == http.StatusOK {
			n++
		}
	}
	return n
}

// normalGet is a normal client from the address from: a fresh
// http.Client, as a browser or a script would be.
func normalGet(t *testing.T, from, addr string) int {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	tr := &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		return d.DialContext(ctx, network, a)
	}}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("normal client from %s: %v", from, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

var healthz = http.HandlerFunc(server.Healthz)

// TestIdleFloodFromOneClient: idle keep-alive connections from one address
// beyond the per-client cap close that client's longest idle ones, and a
// normal client, from another address or from the same one, is served.
func TestIdleFloodFromOneClient(t *testing.T) {
	var closed sync.Map // reason → *atomic.Int64
	count := func(reason string) *atomic.Int64 {
		n, _ := closed.LoadOrStore(reason, new(atomic.Int64))
		return n.(*atomic.Int64)
	}
	addr := limited(t, healthz, server.ConnLimits{Max: 100, PerClient: 10, Closed: func(r string) { count(r).Add(1) }})
	ks := flood(t, addr, 40, "127.0.0.1")
	if n := count("idle").Load(); n != 30 {
		t.Errorf("%d idle connections closed by the flood of 40 against a cap of 10, want 30", n)
	}
	if st := normalGet(t, "127.0.0.2", addr); st != http.StatusOK {
		t.Errorf("normal client from another address: %d, want 200", st)
	}
	if st := normalGet(t, "127.0.0.1", addr); st != http.StatusOK {
		t.Errorf("normal client from the flooding address: %d, want 200", st)
	}
	if n := alive(ks); n > 10 {
		t.Errorf("%d of the flood's connections still open; the per-client cap is 10", n)
	}
	if n := count("refused").Load(); n != 0 {
		t.Errorf("%d connections refused; there was always an idle one to close", n)
	}
}

// TestIdleFloodFromManyClients: idle connections from many addresses, more
// than the server's cap, make room for a normal client by closing the
// longest idle ones; the server never holds more than its cap.
func TestIdleFloodFromManyClients(t *testing.T) {
	addr := limited(t, healthz, server.ConnLimits{Max: 20, PerClient: 8})
	ks := flood(t, addr, 8, "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6")
	if st := normalGet(t, "127.0.0.9", addr); st != http.StatusOK {
		t.Errorf("normal client: %d, want 200", st)
	}
	// Each flood connection asks again: the closed ones fail.
	if n := alive(ks); n > 20 {
		t.Errorf("%d of the flood's connections still open; the server's cap is 20", n)
	}
}

// TestTrustedProxyNotCappedPerClient: a trusted proxy's connections count
// towards the server's cap only: the per-client cap would cap every client
// behind it together.
func TestTrustedProxyNotCappedPerClient(t *testing.T) {
	addr := limited(t, healthz, server.ConnLimits{Max: 100, PerClient: 2,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.3/32")}})
	proxy := flood(t, addr, 6, "127.0.0.3")
	client := flood(t, addr, 6, "127.0.0.4")
	if n := alive(proxy); n != 6 {
		t.Errorf("%d of the trusted proxy's 6 connections open, want all", n)
	}
	if n := alive(client); n > 2 {
		t.Errorf("%d of a client's 6 connections open; the per-client cap is 2", n)
	}
}

// TestBusyConnectionsRefuse: when every connection is serving a request,
// none is closed; a connection over the cap is answered 503 with
// Retry-After at once and closed.
func TestBusyConnectionsRefuse(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		w.WriteHeader(http.StatusOK)
	})
	var refused atomic.Int64
	addr := limited(t, slow, server.ConnLimits{Max: 2, PerClient: 2, Closed: func(r string) {
		if r == "refused" {
			refused.Add(1)
		}
	}})
	busy := []*keepAlive{dialFrom(t, "127.0.0.1", addr), dialFrom(t, "127.0.0.2", addr)}
	for _, k := range busy {
		if _, err := io.WriteString(k.c, "GET /slow HTTP/1.1\r\nHost: costdb\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		<-entered
	}
	over := dialFrom(t, "127.0.0.3", addr)
	resp, err := http.ReadResponse(over.r, nil)
	if err != nil {
		t.Fatalf("over the cap: %v, want a 503", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "too many connections") {
		t.Errorf("over the cap: %d, Retry-After %q, %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if _, err := over.r.ReadByte(); err == nil {
		t.Error("the refused connection is still open")
	}
	if n := refused.Load(); n != 1 {
		t.Errorf("%d refusals told, want 1", n)
	}
}

// TestConnCapsUnderChurn: connections opened, used, left idle and closed
// from both ends at once (the server's idle timeout closing some as the
// caps close others) leave the counts right: afterwards a client is
// served and the caps still hold. Run with -race, it also checks the
// locking (a deadlock hangs the test).
func TestConnCapsUnderChurn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(ln.Addr().String(), healthz, server.Timeouts{ReadHeader: server.DefaultTimeouts.ReadHeader, Idle: 100 * time.Millisecond})
	go func() { _ = srv.Serve(server.Limit(ln, srv, server.ConnLimits{Max: 12, PerClient: 5})) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := ln.Addr().String()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(from string) {
			defer wg.Done()
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
			for i := 0; i < 60; i++ {
				c, err := d.Dial("tcp", addr)
				if err != nil {
					continue
				}
				k := &keepAlive{c: c, r: bufio.NewReader(c)}
				_, _ = k.get() // served, refused or closed: all allowed here
				if i%3 == 0 {
					c.Close()
				} else {
					defer c.Close() // left open, idle, until the goroutine ends
				}
			}
		}("127.0.0." + strconv.Itoa(20+g%4))
	}
	wg.Wait()
	if st := normalGet(t, "127.0.0.9", addr); st != http.StatusOK {
		t.Errorf("after the churn: %d, want 200", st)
	}
	ks := flood(t, addr, 5, "127.0.0.10")
	// The sixth is served once (so the server has taken it, and closed
	// the longest idle of the five) before the connections are counted:
	// counted at once, the five could answer before the server accepted it.
	sixth := dialFrom(t, "127.0.0.10", addr)
	_, _ = sixth.get()
	ks = append(ks, sixth)
	if n := alive(ks); n > 5 {
		t.Errorf("after the churn, %d connections open from one client; the cap is 5", n)
	}
}
