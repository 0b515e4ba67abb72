package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/costdb/costdb/bench/benchfix"
)

// rawConn is a lean HTTP/1.1 client on one kept-alive connection, in the
// manner of wrk: it writes each request from bytes it reuses and reads the
// answer's status, length and body with no more parsing than that. The
// server sees the same requests as from net/http's client; the load
// generator, which shares the machine's cores with the server, takes less
// of them (-client raw, the default).
type rawConn struct {
	addr string
	host string
	c    net.Conn
	r    *bufio.Reader
	req  []byte
}

func dialRaw(base string) (*rawConn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, err
	}
	rc := &rawConn{addr: u.Host, host: u.Host}
	return rc, rc.dial()
}

func (rc *rawConn) dial() error {
	if rc.c != nil {
		_ = rc.c.Close()
	}
	c, err := net.Dial("tcp", rc.addr)
	if err != nil {
		return err
	}
	rc.c, rc.r = c, bufio.NewReaderSize(c, 16<<10)
	return nil
}

func (rc *rawConn) Close() error { return rc.c.Close() }

// do sends one request (hdr: name, value pairs) and reads its answer
// whole, returning its status and body (valid until the next do).
func (rc *rawConn) do(method, path string, hdr []string, body []byte, scratch []byte) (int, []byte, error) {
	b := rc.req[:0]
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, rc.host...)
	b = append(b, "\r\n"...)
	for i := 0; i+1 < len(hdr); i += 2 {
		b = append(b, hdr[i]...)
		b = append(b, ": "...)
		b = append(b, hdr[i+1]...)
		b = append(b, "\r\n"...)
	}
	if body != nil {
		b = append(b, "Content-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
		b = append(b, "\r\n"...)
	}
	b = append(b, "\r\n"...)
	b = append(b, body...)
	rc.req = b
	if _, err := rc.c.Write(b); err != nil {
		return 0, nil, err
	}
	return rc.read(scratch)
}

// read reads one answer: its status line, its headers (Content-Length,
// Transfer-Encoding: chunked, Connection: close) and its body.
func (rc *rawConn) read(scratch []byte) (int, []byte, error) {
	line, err := rc.line()
	if err != nil {
		return 0, nil, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, nil, fmt.Errorf("bad status line %q", line)
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, nil, fmt.Errorf("bad status line %q", line)
	}
	length, chunked, closing := -1, false, false
	for {
		h, err := rc.line()
		if err != nil {
			return 0, nil, err
		}
		if len(h) == 0 {
			break
		}
		name, value, ok := bytes.Cut(h, []byte(":"))
		if !ok {
			return 0, nil, fmt.Errorf("bad header %q", h)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, nil, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			closing = bytes.EqualFold(value, []byte("close"))
		}
	}
	body := scratch[:0]
	switch {
	case chunked:
		for {
			l, err := rc.line()
			if err != nil {
				return 0, nil, err
			}
			l, _, _ = bytes.Cut(l, []byte(";"))
			n, err := strconv.ParseInt(string(bytes.TrimSpace(l)), 16, 64)
			if err != nil {
				return 0, nil, fmt.Errorf("bad chunk size %q", l)
			}
			if n == 0 {
				for { // trailers, up to the blank line
					t, err := rc.line()
					if err != nil {
						return 0, nil, err
					}
					if len(t) == 0 {
						break
					}
				}
				break
			}
			if body, err = readN(rc.r, body, int(n)); err != nil {
				return 0, nil, err
			}
			if l, err := rc.line(); err != nil || len(l) != 0 {
				return 0, nil, fmt.Errorf("chunk not closed: %q %v", l, err)
			}
		}
	case length >= 0:
		if body, err = readN(rc.r, body, length); err != nil {
			return 0, nil, err
		}
	case status == 204 || status == 304:
	default:
		return 0, nil, errors.New("an answer with neither a length nor chunks")
	}
	if closing {
		if err := rc.dial(); err != nil {
			return 0, nil, err
		}
	}
	return status, body, nil
}

// line reads one header line, without its CRLF.
func (rc *rawConn) line() ([]byte, error) {
	l, err := rc.r.ReadSlice('\n')
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(l, "\r\n"), nil
}

// readN appends n bytes of r to dst.
func readN(r *bufio.Reader, dst []byte, n int) ([]byte, error) {
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	_, err := io.ReadFull(r, dst[start:])
	return dst, err
}

// loadRaw is load with rawConn clients.
func loadRaw(base string, hdr []string, c int, d time.Duration) float64 {
	u, err := url.Parse(base)
	benchfix.Must(err)
	path := u.RequestURI()
	var n atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc, err := dialRaw(base)
			if err != nil {
				failed.Store(err.Error())
				return
			}
			defer rc.Close()
			var scratch []byte
			for time.Now().Before(stop) {
				st, body, err := rc.do("GET", path, hdr, nil, scratch)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				if st != 200 {
					failed.Store(fmt.Sprintf("status %d: %s", st, body))
					return
				}
				scratch = body
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if v := failed.Load(); v != nil {
		log.Fatalf("load on %s: %v", base, v)
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}

// addItemsRaw is addItemsLoad with rawConn clients: the same requests.
func addItemsRaw(f *benchfix.Fixture, d time.Duration) float64 {
	hdr := []string{"Content-Type", "application/json", "Authorization", "Bearer " + f.Token}
	var n atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for w, id := range f.Comps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rc, err := dialRaw(f.URL)
			if err != nil {
				failed.Store(err.Error())
				return
			}
			defer rc.Close()
			path := "/api/public/v2/my_database/compositions/" + id + "/add_items"
			var body, scratch []byte
			for i := 0; time.Now().Before(stop); i++ {
				body = append(body[:0], `{"items":[{"bank":"SINAPI","code":"`...)
				body = append(body, benchfix.ItemCodes[(w+i)%14].Code...)
				body = append(body, `","quantity":`...)
				body = strconv.AppendInt(body, int64(i%1000+1), 10)
				body = append(body, `.5,"resource":true}]}`...)
				st, b, err := rc.do("POST", path, hdr, body, scratch)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				if st != 200 {
					failed.Store(fmt.Sprintf("status %d: %s", st, b))
					return
				}
				scratch = b
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if v := failed.Load(); v != nil {
		log.Fatalf("add_items load: %v", v)
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}
