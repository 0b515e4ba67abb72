package server_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/httpapi/server"
)

// small are short limits, so that the tests run quickly; bounds are
// asserted generously (3× the limit) so that a loaded machine does not fail
// them.
var small = server.Timeouts{ReadHeader: 400 * time.Millisecond, Body: 400 * time.Millisecond, Write: 5 * time.Second, Idle: 400 * time.Millisecond}

// listen serves the whole API with the timeouts t on a real listener on
// 127.0.0.1 and returns its address.
func listen(t *testing.T, to server.Timeouts) string {
	t.Helper()
	h := apitest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(ln.Addr().String(), server.Handler(h.Env), to)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

// dial opens a connection that the test closes when it ends.
func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitClosed reads conn until the server closes it and fails the test when
// that takes longer than bound.
func waitClosed(t *testing.T, c net.Conn, start time.Time, bound time.Duration) {
	t.Helper()
	if err := c.SetReadDeadline(start.Add(bound)); err != nil {
		t.Fatal(err)
	}
	_, err := io.Copy(io.Discard, c)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		t.Fatalf("the connection is still open after %s", bound)
	case err != nil && !isReset(err):
		t.Fatalf("reading until closed: %v", err)
	}
}

// isReset reports a connection the server reset rather than closed
// cleanly: closed all the same.
func isReset(err error) bool {
	return strings.Contains(err.Error(), "connection reset")
}

const loginHead = "POST /api/v1/login/authenticate_user HTTP/1.1\r\nHost: costdb\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"

// TestTricklingBodyIsClosed: a client that sends its body a byte at a time
// has its connection closed once the body timeout has passed.
func TestTricklingBodyIsClosed(t *testing.T) {
	addr := listen(t, small)
	c := dial(t, addr)
	start := time.Now()
	if _, err := io.WriteString(c, loginHead+"{"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := io.WriteString(c, " "); err != nil {
					return // closed by the server
				}
			}
		}
	}()
	waitClosed(t, c, start, 3*small.Body)
}

// TestTricklingHeadersAreClosed: the same for headers that never end.
func TestTricklingHeadersAreClosed(t *testing.T) {
	addr := listen(t, small)
	c := dial(t, addr)
	start := time.Now()
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: costdb\r\n"); err != nil {
		t.Fatal(err)
	}
	go func() {
		for i := 0; i < 100; i++ {
			if _, err := io.WriteString(c, "X-Slow: 1\r\n"); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	waitClosed(t, c, start, 3*small.ReadHeader)
}

// TestIdleKeepAliveIsClosed: a keep-alive connection that sends nothing
// after its answer is closed once the idle timeout has passed; one that
// sends its request and body at once is answered, twice on one connection.
func TestIdleKeepAliveIsClosed(t *testing.T) {
	addr := listen(t, small)
	c := dial(t, addr)
	br := bufio.NewReader(c)
	body := `{"email":"nobody@example.com","secret_token":"x"}`
	for i := 0; i < 2; i++ {
		req := "POST /api/v1/login/authenticate_user HTTP/1.1\r\nHost: costdb\r\nContent-Type: application/json\r\nContent-Length: " +
			strconv.Itoa(len(body)) + "\r\n\r\n" + body
		if _, err := io.WriteString(c, req); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("request %d: status %d, want 401", i+1, resp.StatusCode)
		}
	}
	start := time.Now()
	if err := c.SetReadDeadline(start.Add(3 * small.Idle)); err != nil {
		t.Fatal(err)
	}
	_, err := io.Copy(io.Discard, br)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the idle connection is still open after %s", 3*small.Idle)
	}
}

// TestBodyDeadlineEndsWithBody: once the body has been read, the body
// timeout no longer applies, so a handler that works longer than it is
// neither cancelled nor cut off.
func TestBodyDeadlineEndsWithBody(t *testing.T) {
	ctxErrs := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		time.Sleep(3 * small.Body) // longer than the body timeout
		ctxErrs <- r.Context().Err()
		io.WriteString(w, "done")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(ln.Addr().String(), h, small)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	resp, err := http.Post("http://"+ln.Addr().String()+"/", "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 || string(b) != "done" {
		t.Fatalf("answer %d %q (%v), want 200 done", resp.StatusCode, b, err)
	}
	if ctxErr := <-ctxErrs; ctxErr != nil {
		t.Errorf("the request's context ended while the handler worked: %v", ctxErr)
	}
}
