package httpapi

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

// countersStore is a store of settings only, all of them absent (every
// generation zero): enough for the speed layer's generation reads.
type countersStore struct{ app.Store }

func (countersStore) Settings(_ context.Context, keys []string) ([][]byte, error) {
	return make([][]byte, len(keys)), nil
}

// TestConcurrentMissesRenderOnce: requests that miss the cache while the
// same answer is being rendered wait for that render and get its answer
// (headers and body); the handler runs once. A request whose client leaves
// while it waits gets nothing and does not hold the others; once the
// answer is cached, a later request is served from the cache; an answer
// that is not a 200 is not shared: every waiter renders its own.
func TestConcurrentMissesRenderOnce(t *testing.T) {
	e := &Env{Speed: storecache.New(countersStore{})}
	renders := &inFlight{}
	var runs atomic.Int32
	release := make(chan struct{})
	status := http.StatusOK
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		<-release
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, `{"page":1}`)
	})
	h := e.conditional(newResponseCache(1<<20), renders)(inner)
	p := domain.Principal{CompanyID: "co1", UserID: "u1"}
	do := func(ctx context.Context) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/api/public/v2/my_database/resources", nil).WithContext(WithPrincipal(ctx, p))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	// waitFor waits until n requests wait on the render in flight.
	waitFor := func(n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; {
			renders.mu.Lock()
			w := -1
			for _, fl := range renders.m {
				w = fl.waiters
			}
			renders.mu.Unlock()
			if w == n {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d requests wait on the render, want %d", w, n)
			}
			time.Sleep(time.Millisecond)
		}
	}

	const n = 8
	results := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = do(context.Background()) }()
	}
	waitFor(n - 1) // one of them renders, the others wait
	gone, leave := context.WithCancel(context.Background())
	left := make(chan *httptest.ResponseRecorder)
	go func() { left <- do(gone) }()
	waitFor(n) // and the one that leaves
	leave()
	if w := <-left; w.Body.Len() != 0 {
		t.Errorf("a request whose client left was answered %q", w.Body)
	}
	close(release)
	wg.Wait()
	if got := runs.Load(); got != 1 {
		t.Errorf("the handler ran %d times for %d concurrent misses, want 1", got, n)
	}
	tag := results[0].Header().Get("ETag")
	for i, w := range results {
		if w.Code != 200 || w.Body.String() != `{"page":1}` || w.Header().Get("ETag") != tag || tag == "" ||
			w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("request %d: %d %q, ETag %q, Content-Type %q", i, w.Code, w.Body, w.Header().Get("ETag"), w.Header().Get("Content-Type"))
		}
	}
	if w := do(context.Background()); w.Code != 200 || runs.Load() != 1 {
		t.Errorf("after the render: %d, the handler ran %d times; want it served from the cache", w.Code, runs.Load())
	}

	// Not a 200: each waiter renders its own.
	status, release = http.StatusNotFound, make(chan struct{})
	h = e.conditional(newResponseCache(1<<20), renders)(inner) // a fresh cache
	runs.Store(0)
	for i := range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = do(context.Background()) }()
	}
	waitFor(2)
	close(release)
	wg.Wait()
	if got := runs.Load(); got != 3 {
		t.Errorf("the handler ran %d times for 3 concurrent misses of a 404, want 3", got)
	}
}

// TestLargeAnswerLetsWaitersGo: a render whose answer grows past what the
// cache keeps (a large export) lets the requests waiting for it go as soon
// as it does, not when it ends: each renders its own.
func TestLargeAnswerLetsWaitersGo(t *testing.T) {
	e := &Env{Speed: storecache.New(countersStore{})}
	renders := &inFlight{}
	var runs atomic.Int32
	release := make(chan struct{})
	big := make([]byte, maxCachedAnswer+1)
	h := e.conditional(newResponseCache(1<<20), renders)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first := runs.Add(1) == 1
		_, _ = w.Write(big)
		if first {
			<-release // the first render goes on after its answer overflowed
		}
	}))
	p := domain.Principal{CompanyID: "co1", UserID: "u1"}
	do := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/api/public/v2/budgets/b1/reports/analytic.xlsx", nil).WithContext(WithPrincipal(context.Background(), p))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	leader := make(chan *httptest.ResponseRecorder, 1)
	go func() { leader <- do() }()
	for deadline := time.Now().Add(10 * time.Second); runs.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first render did not start")
		}
	}
	// The first render has overflowed (or will): these must not wait for
	// its end, which comes only after they are answered.
	for i := range 3 {
		if w := do(); w.Code != 200 || w.Body.Len() != len(big) {
			t.Fatalf("waiter %d: %d, %d bytes", i, w.Code, w.Body.Len())
		}
	}
	close(release)
	if w := <-leader; w.Code != 200 || w.Body.Len() != len(big) {
		t.Errorf("first: %d, %d bytes", w.Code, w.Body.Len())
	}
	if got := runs.Load(); got != 4 {
		t.Errorf("the handler ran %d times, want 4 (a large answer is not shared)", got)
	}
}
