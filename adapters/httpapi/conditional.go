package httpapi

import (
	"context"
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
// Exactness: the tag is made of the write generations
// (storecache.Generation: the global one, the company's records but its
// compositions, and either all the company's compositions or, for the GET
// of one composition, that composition's counter), read from the store
// after the request arrived and before the handler reads anything (by
// Authenticate, with the caller), plus what else shapes the answer (the
// caller, the method, the path and query, Accept). Every write bumps the
// counters of what it changes in its own transaction, so once a write is
// acknowledged every later request, on any server sharing the store, reads
// new counters: its tag differs, it is not a 304 and it is not served from
// the cache. An answer rendered after a write that committed between the
// generation read and the handler's read is newer than its tag says, never
// older.
//
// The GET of one composition (Narrow.Composition) is tagged by that
// composition's counter when the only company composition its handler read
// is that one, by its id (storecache.Reads, noted while it runs); so a
// write of another composition of the company leaves its cached answer and
// its tag valid. The GET of own resources (Narrow.NoCompositions) whose
// handler read no composition is tagged by no composition counter. An
// answer of any other kind is tagged by all the company's compositions.
// The kinds have different tags and cache keys, and a request looks each
// up: the tag of a narrow kind cannot match a client's tag unless that
// answer was of that kind at the same counters, which fix what the handler
// reads.
func (e *Env) Conditional() func(http.Handler) http.Handler {
	r := e.Responses
	if r == nil {
		r = NewResponses(e.ResponseCacheBytes)
	}
	return e.conditional(r.cache, r.renders)
}

// Responses are the response cache and the renders in flight of
// Conditional, which the generations of one server share (Env.Responses),
// so that the cache's bound is the server's.
type Responses struct {
	cache   *responseCache
	renders *inFlight
}

// NewResponses returns a response cache of size bytes
// (DefaultResponseCacheBytes when size is 0 or less).
func NewResponses(size int64) *Responses {
	if size <= 0 {
		size = DefaultResponseCacheBytes
	}
	return &Responses{cache: newResponseCache(int(size)), renders: &inFlight{}}
}

// conditional is Conditional over a cache and the renders in flight.
func (e *Env) conditional(cache *responseCache, renders *inFlight) func(http.Handler) http.Handler {
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
				if g, err = e.Speed.Generation(r.Context(), p.CompanyID, ""); err != nil {
					next.ServeHTTP(w, r) // no tag: the handler answers the store's fault
					return
				}
			}
			ident := strings.Join([]string{p.CompanyID, p.UserID, p.DepartmentID, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept")}, "\x00")
			nw, _ := r.Context().Value(narrowKey).(Narrow)
			all := newTagged(g, "m", g.Comps, ident)
			var one, none *tagged // the narrow kinds the route may be of
			if g.CompositionID != "" && nw.Composition == g.CompositionID {
				one = newTagged(g, "c"+g.CompositionID+"=", g.Comp, ident)
				one.id = g.CompositionID
			}
			if nw.NoCompositions {
				none = newTagged(g, "n", 0, ident)
			}
			inm := r.Header.Get("If-None-Match")
			for _, t := range []*tagged{one, none, all} {
				if t != nil && inm != "" && etagMatches(inm, t.etag()) {
					w.Header().Set("ETag", t.etag())
					w.WriteHeader(http.StatusNotModified)
					return
				}
			}
			if !e.NoResponseCache {
				for _, t := range []*tagged{one, none, all} {
					if t == nil {
						continue
					}
					if ent := cache.get(t.key); ent != nil {
						serveCached(w, ent)
						return
					}
				}
			}
			if !e.NoResponseCache {
				fl, lead := renders.join(all.key)
				if !lead {
					select {
					case <-fl.done:
					case <-r.Context().Done():
						return // the client left
					}
					if fl.ans != nil {
						serveCached(w, fl.ans)
						return
					}
					// Not an answer to share: render it.
				} else {
					var ans *cachedAnswer
					defer func() { renders.end(all.key, fl, ans) }()
					// An answer that will not be shared (not a 200, or larger
					// than the cache keeps: a big export) lets its waiters go at
					// once rather than when it ends.
					ans = render(next, w, r, all, one, none, false, func() { renders.end(all.key, fl, nil) })
					if ans != nil {
						cache.put(ans.key, ans)
					}
					return
				}
			}
			if ans := render(next, w, r, all, one, none, e.NoResponseCache, nil); ans != nil {
				cache.put(ans.key, ans)
			}
		})
	}
}

// render runs the handler for a request that no cached answer serves and
// returns the answer to keep, nil when it is not one (not a 200, too large
// or streamed, or noCache). giveUp, when not nil, is called as soon as the
// answer is known not to be one.
func render(next http.Handler, w http.ResponseWriter, r *http.Request, all, one, none *tagged, noCache bool, giveUp func()) *cachedAnswer {
	cw := &captureWriter{ResponseWriter: w, all: all, one: one, none: none, before: w.Header().Clone(), overflow: noCache, giveUp: giveUp}
	if one != nil || none != nil {
		var ctx context.Context
		ctx, cw.reads = storecache.WithReads(r.Context())
		r = r.WithContext(ctx)
	}
	next.ServeHTTP(cw, r)
	if cw.status == http.StatusOK && !cw.overflow && cw.kind() == cw.chosen {
		return &cachedAnswer{key: cw.chosen.key, header: cw.header, body: slices.Clip(cw.buf)}
	}
	return nil
}

// serveCached answers a with its stored headers and body.
func serveCached(w http.ResponseWriter, a *cachedAnswer) {
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(a.body)
}

// inFlight are the answers being rendered, by their broad key (the
// counters and the request): a request that finds no cached answer while
// the same one is being rendered for another waits for that render and is
// answered with it, instead of rendering it again (issue 29: a list page
// missed by 64 clients at once was computed 64 times). Exact as the cache
// is: the same key means that no write was acknowledged between the
// leader's read of the counters and the waiter's, which came after the
// waiter arrived, so the leader's render, read after its counters, holds
// every write acknowledged before the waiter arrived.
type inFlight struct {
	mu sync.Mutex
	m  map[string]*flight
}

type flight struct {
	done    chan struct{}
	ans     *cachedAnswer // set before done is closed; nil: none to share
	waiters int           // the requests that joined it (under inFlight.mu)
	once    sync.Once
}

// join returns the render of key in flight and false, or a new one and
// true: the caller renders it and ends it.
func (f *inFlight) join(key string) (*flight, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if fl := f.m[key]; fl != nil {
		fl.waiters++
		return fl, false
	}
	if f.m == nil {
		f.m = map[string]*flight{}
	}
	fl := &flight{done: make(chan struct{})}
	f.m[key] = fl
	return fl, true
}

// end ends the render of key with ans (nil: none to share); only its
// first call counts.
func (f *inFlight) end(key string, fl *flight, ans *cachedAnswer) {
	fl.once.Do(func() {
		f.mu.Lock()
		delete(f.m, key)
		f.mu.Unlock()
		fl.ans = ans
		close(fl.done)
	})
}

// tagged is one way to tag an answer: its cache key and its ETag (made
// when asked: an answer served from the cache carries its own), and the
// composition it names, if any.
type tagged struct {
	key, tag, id string
	g            storecache.Generation
	n            uint64
}

// newTagged tags an answer by the global and company counters, plus the
// counter n of what kind names ("m": all the company's compositions; "c"
// and an id: that composition).
func newTagged(g storecache.Generation, kind string, n uint64, ident string) *tagged {
	key := strings.Join([]string{strconv.FormatUint(g.Global, 10), strconv.FormatUint(g.Company, 10), kind + strconv.FormatUint(n, 10), ident}, "\x00")
	return &tagged{key: key, g: g, n: n}
}

func (t *tagged) etag() string {
	if t.tag == "" {
		sum := sha256.Sum256([]byte(t.key))
		t.tag = `W/"` + strconv.FormatUint(t.g.Global, 10) + "." + strconv.FormatUint(t.g.Company, 10) + "." +
			strconv.FormatUint(t.n, 10) + "." + hex.EncodeToString(sum[:8]) + `"`
	}
	return t.tag
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

// DefaultResponseCacheBytes bounds the answers a response cache keeps
// when Env.ResponseCacheBytes is not set; maxCachedAnswer is the largest
// body it keeps.
const (
	DefaultResponseCacheBytes = 256 << 20
	maxCachedAnswer           = 1 << 20
)

type cachedAnswer struct {
	key    string
	header http.Header
	body   []byte
	size   int // what it is counted for in the cache's bound
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
	a.size = len(key) + cap(a.body) + entryOverhead
	for k, v := range a.header {
		a.size += len(k) + 16
		for _, s := range v {
			a.size += len(s) + 16
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[key]; old != nil {
		c.bytes -= old.size
	}
	c.m[key] = a
	c.bytes += a.size
	for k, v := range c.m { // map order: any entry may go
		if c.bytes <= c.max {
			break
		}
		delete(c.m, k)
		c.bytes -= v.size
	}
}

// entryOverhead is about what an entry costs besides its key, body and
// headers: the map's slot, the entry, the header map.
const entryOverhead = 256

// captureWriter passes an answer through, tagging a 200 with its ETag and
// keeping a copy of it (headers and body, up to maxCachedAnswer) for the
// cache.
type captureWriter struct {
	http.ResponseWriter
	// all tags the answer as depending on all the company's compositions;
	// one, when not nil, as depending on one composition only, and none on
	// none of them, which it does while reads says so (Conditional).
	all, one, none *tagged
	reads          *storecache.Reads
	chosen         *tagged // the tag sent
	// before are the headers set before the handler ran (by outer
	// middleware, for this request only: X-Request-Id): never cached.
	before   http.Header
	status   int
	header   http.Header
	buf      []byte
	overflow bool
	giveUp   func() // called once the answer is known not to be kept
}

// gaveUp notes that the answer will not be kept.
func (c *captureWriter) gaveUp() {
	if c.giveUp != nil {
		c.giveUp()
		c.giveUp = nil
	}
}

// kind is how the answer is tagged by what its handler has read so far.
func (c *captureWriter) kind() *tagged {
	switch {
	case c.reads == nil:
	case c.none != nil && c.reads.None():
		return c.none
	case c.one != nil && c.reads.Only(c.one.id):
		return c.one
	}
	return c.all
}

func (c *captureWriter) WriteHeader(status int) {
	if c.status != 0 {
		return
	}
	c.status = status
	if status == http.StatusOK {
		c.chosen = c.kind()
		c.ResponseWriter.Header().Set("ETag", c.chosen.etag())
		c.header = http.Header{}
		for k, v := range c.ResponseWriter.Header() {
			if !slices.Equal(c.before[k], v) {
				c.header[k] = slices.Clone(v)
			}
		}
		if n, err := strconv.Atoi(c.ResponseWriter.Header().Get("Content-Length")); err == nil && n <= maxCachedAnswer && !c.overflow {
			c.buf = make([]byte, 0, n)
		}
	} else {
		c.gaveUp()
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
			c.gaveUp()
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
