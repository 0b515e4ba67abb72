package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"github.com/costdb/costdb/app/storecache"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Conditional is middleware for the authenticated routes (issue 11): every
// GET answered 200 carries an ETag, a GET whose If-None-Match holds it
// answers 304 without running the handler, and answers are kept in memory
// and served again while nothing they could show has changed.
//
// Exactness: the tag is made of the company's write generation
// (storecache.Store.Generation, read with the caller by Authenticate),
// read from the store after the request arrived and before the handler
// reads anything, plus what else shapes the
// answer (the caller, the method, the path and query, Accept). Every write
// bumps the generations of what it changes in its own transaction, so once
// a write is acknowledged every later request, on any server sharing the
// store, reads a new generation: its tag differs, it is not a 304 and it
// is not served from the cache. An answer rendered after a write that
// committed between the generation read and the handler's read is newer
// than its tag says, never older.
func (e *Env) Conditional() func(http.Handler) http.Handler {
	cache := newResponseCache(maxCacheBytes)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || e.Speed == nil {
				next.ServeHTTP(w, r) // no generations (Env.Speed): no tags
				return
			}
			p := PrincipalFrom(r.Context())
			// Authenticate read the generation with the caller, in the
			// same transaction; a route wired otherwise reads it here.
			g, ok := r.Context().Value(generationKey).(storecache.Generation)
			if !ok {
				var err error
				if g, err = e.Speed.Generation(r.Context(), p.CompanyID); err != nil {
					next.ServeHTTP(w, r) // no tag: the handler answers the store's fault
					return
				}
			}
			key := strings.Join([]string{
				strconv.FormatUint(g.Global, 10), strconv.FormatUint(g.Company, 10),
				p.CompanyID, p.UserID, p.DepartmentID, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept"),
			}, "\x00")
			sum := sha256.Sum256([]byte(key))
			tag := `W/"` + strconv.FormatUint(g.Global, 10) + "." + strconv.FormatUint(g.Company, 10) + "." + hex.EncodeToString(sum[:8]) + `"`
			if etagMatches(r.Header.Get("If-None-Match"), tag) {
				w.Header().Set("ETag", tag)
				w.WriteHeader(http.StatusNotModified)
				return
			}
			if e.NoResponseCache {
				next.ServeHTTP(&captureWriter{ResponseWriter: w, tag: tag, overflow: true}, r)
				return
			}
			if ent := cache.get(key); ent != nil {
				h := w.Header()
				for k, v := range ent.header {
					h[k] = v
				}
				w.WriteHeader(http.StatusOK)
				_, _ = w.Write(ent.body)
				return
			}
			cw := &captureWriter{ResponseWriter: w, tag: tag, before: w.Header().Clone()}
			next.ServeHTTP(cw, r)
			if cw.status == http.StatusOK && !cw.overflow {
				cache.put(key, &cachedAnswer{header: cw.header, body: cw.buf})
			}
		})
	}
}

// etagMatches is the weak comparison of If-None-Match (RFC 9110 13.1.2).
func etagMatches(header, tag string) bool {
	if header == "" {
		return false
	}
	want := strings.TrimPrefix(tag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

// maxCacheBytes bounds the bodies a response cache keeps; maxCachedAnswer
// is the largest body it keeps.
const (
	maxCacheBytes   = 32 << 20
	maxCachedAnswer = 1 << 20
)

type cachedAnswer struct {
	header http.Header
	body   []byte
}

// responseCache keeps answers by key (generations, caller, request). An
// entry of an older generation is never looked up again; entries leave
// when the cache is over its size.
type responseCache struct {
	mu    sync.RWMutex
	m     map[string]*cachedAnswer
	bytes int
	max   int
}

func newResponseCache(max int) *responseCache {
	return &responseCache{m: map[string]*cachedAnswer{}, max: max}
}

func (c *responseCache) get(key string) *cachedAnswer {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[key]
}

func (c *responseCache) put(key string, a *cachedAnswer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[key]; old != nil {
		c.bytes -= len(old.body) + len(key)
	}
	c.m[key] = a
	c.bytes += len(a.body) + len(key)
	for k, v := range c.m { // map order: any entry may go
		if c.bytes <= c.max {
			break
		}
		delete(c.m, k)
		c.bytes -= len(v.body) + len(k)
	}
}

// captureWriter passes an answer through, tagging a 200 with its ETag and
// keeping a copy of it (headers and body, up to maxCachedAnswer) for the
// cache.
type captureWriter struct {
	http.ResponseWriter
	tag string
	// before are the headers set before the handler ran (by outer
	// middleware, for this request only: X-Request-Id): never cached.
	before   http.Header
	status   int
	header   http.Header
	buf      []byte
	overflow bool
}

func (c *captureWriter) WriteHeader(status int) {
	if c.status != 0 {
		return
	}
	c.status = status
	if status == http.StatusOK {
		c.ResponseWriter.Header().Set("ETag", c.tag)
		c.header = http.Header{}
		for k, v := range c.ResponseWriter.Header() {
			if !slices.Equal(c.before[k], v) {
				c.header[k] = slices.Clone(v)
			}
		}
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if c.status == http.StatusOK && !c.overflow {
		if len(c.buf)+len(b) > maxCachedAnswer {
			c.overflow, c.buf = true, nil
		} else {
			c.buf = append(c.buf, b...)
		}
	}
	return c.ResponseWriter.Write(b)
}

// Flush sends what was written so far, for answers written as they are
// computed.
func (c *captureWriter) Flush() {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
