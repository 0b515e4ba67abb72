package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
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
	addr   string
	host   string
	c      net.Conn
	r      *bufio.Reader
	req    []byte
	answer []byte // the last answer's body, its buffer reused
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
func (rc *rawConn) do(method, path string, hdr []string, body []byte) (int, []byte, error) {
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
	st, answer, err := rc.read(rc.answer)
	rc.answer = answer
	return st, answer, err
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

// loadClient sends requests for one worker of a load and reads their answers
// whole: do returns the answer's status and body.
type loadClient interface {
	do(method, path string, hdr []string, body []byte) (int, []byte, error)
	Close() error
}

// newClient opens a client of the generator gen (raw or go) to base; the
// go clients of a load share the transport tr.
func newClient(gen, base string, tr *http.Transport) (loadClient, error) {
	if gen == "raw" {
		return dialRaw(base)
	}
	return &goClient{base: base, cl: &http.Client{Transport: tr}}, nil
}

// goClient is net/http's client, on the load's shared transport (a
// kept-alive connection a worker).
type goClient struct {
	base string
	cl   *http.Client
	buf  bytes.Buffer // the answers' body, its buffer reused
}

func (g *goClient) do(method, path string, hdr []string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, g.base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := g.cl.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	g.buf.Reset()
	_, err = g.buf.ReadFrom(resp.Body)
	return resp.StatusCode, g.buf.Bytes(), err
}

func (g *goClient) Close() error { return nil }

// drive runs workers clients of the generator gen against base for d, each
// sending the request next gives it (its worker number and its count so
// far) as fast as answers come, and returns the 200 answers per second. Any
// other answer ends the load.
func drive(gen, base string, workers int, d time.Duration, next func(w, i int, body []byte) (method, path string, hdr []string, out []byte)) float64 {
	var n atomic.Int64
	var failed atomic.Value
	stop := time.Now().Add(d)
	start := time.Now()
	tr := &http.Transport{MaxIdleConnsPerHost: workers, MaxConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := newClient(gen, base, tr)
			if err != nil {
				failed.Store(err.Error())
				return
			}
			defer c.Close()
			var body []byte
			for i := 0; time.Now().Before(stop); i++ {
				method, path, hdr, b := next(w, i, body[:0])
				body = b
				st, answer, err := c.do(method, path, hdr, b)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				if st != http.StatusOK {
					failed.Store(fmt.Sprintf("%s %s: status %d: %s", method, path, st, answer))
					return
				}
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

// load runs c clients of the generator gen (raw or go) sending GET url for
// d and returns requests per second.
func load(gen, rawURL string, hdr []string, c int, d time.Duration) float64 {
	u, err := url.Parse(rawURL)
	benchfix.Must(err)
	base, path := u.Scheme+"://"+u.Host, u.RequestURI()
	return drive(gen, base, c, d, func(int, int, []byte) (string, string, []string, []byte) {
		return "GET", path, hdr, nil
	})
}

// addItemsLoad runs one writer per composition of the fixture with the
// generator gen, each sending add_items (one item, a new quantity each
// time) as fast as answers come, for d.
func addItemsLoad(gen string, f *benchfix.Fixture, d time.Duration) float64 {
	hdr := []string{"Content-Type", "application/json", "Authorization", "Bearer " + f.Token}
	return drive(gen, f.URL, len(f.Comps), d, func(w, i int, body []byte) (string, string, []string, []byte) {
		body = append(body, `{"items":[{"bank":"SINAPI","code":"`...)
		body = append(body, benchfix.ItemCodes[(w+i)%14].Code...)
		body = append(body, `","quantity":`...)
		body = strconv.AppendInt(body, int64(i%1000+1), 10)
		body = append(body, `.5,"resource":true}]}`...)
		return "POST", "/api/public/v2/my_database/compositions/" + f.Comps[w] + "/add_items", hdr, body
	})
}
