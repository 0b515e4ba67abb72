package pgbench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
)

// The round trips to PostgreSQL of the requests the load script measures
// (issue 29, item 4), counted by the store's tracer (pgstore.RoundTrips):
// a regression that adds one fails here. The pool has one connection, so
// that after a first request every statement is in that connection's cache
// of prepared statements (a first use costs a round trip more).
const (
	// A rendered v2 GET of an own composition of 20 items, 4 of them own
	// resources (its bank records come from the speed layer's memo): the
	// generation read (authorization), then one read-only transaction whose
	// BEGIN goes with its first batch, which reads the composition with
	// its own resources; its COMMIT is sent after the answer is had.
	wantRenderedGET = 2
	// A GET answered from the response cache: the generation read.
	wantCachedGET = 1
	// add_items to a composition of bank records only (the prepared path:
	// the read transaction, then the write transaction). The write
	// transaction's stamp check goes with its put (pgstore/stampcheck.go),
	// and the read transaction's first statement is the composition's
	// stamp, the global generation coming with it among the settings read
	// ahead (storecache.prepare): 7 before the first, 6 before the second.
	wantAddItemsBank = 5
	// add_items to a composition with own resources (the load's), also
	// prepared since the company's generation checks its own resources
	// (app/storecache/prepared.go): one more round trip than the bank
	// items' for the 4 own resources, read in one go
	// (app.ResourcePrefetcher) when the composition comes decoded from the
	// cache. 8, then 7, before the same two changes.
	wantAddItemsOwn = 6
)

func TestRoundTrips(t *testing.T) {
	if err := pgtest.Available(); err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	st, err := pgstore.Open(ctx, pgtest.NewDatabase(t)+"&pool_max_conns=1", pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := benchfix.SetupStore(st, "", 1)
	t.Cleanup(f.Close)
	co, err := benchfix.GenerateCompany(ctx, storecache.New(st), "bench@example.com", 3, 12, 20, 29)
	if err != nil {
		t.Fatal(err)
	}
	get := func(h http.Handler, id string) {
		t.Helper()
		req := httptest.NewRequest("GET", "/api/public/v2/my_database/compositions/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"MYBASE"`) && id == co.Compositions[0] {
			t.Fatalf("GET %s: %d %s", id, w.Code, w.Body.String())
		}
	}
	n := 0
	add := func(id string) {
		t.Helper()
		n++
		body := fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"%s","quantity":%d.5,"resource":true}]}`, benchfix.ItemCodes[n%14].Code, n)
		req := httptest.NewRequest("POST", "/api/public/v2/my_database/compositions/"+id+"/add_items", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.H.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("add_items %s: %d %s", id, w.Code, w.Body.String())
		}
	}
	// trips runs do after a first run (warming the statement cache, the
	// bank memo and the user cache) and returns the round trips of the
	// second.
	trips := func(do func()) pgstore.RoundTrips {
		t.Helper()
		do()
		before := st.RoundTrips()
		do()
		return st.RoundTrips().Sub(before)
	}
	own := co.Compositions[0]
	cases := []struct {
		what string
		do   func()
		want int64
	}{
		{"rendered GET", func() { get(f.RenderH, own) }, wantRenderedGET},
		{"cached GET", func() { get(f.H, own) }, wantCachedGET},
		{"add_items, bank records", func() { add(f.Comps[0]) }, wantAddItemsBank},
		{"add_items, own resources", func() { add(own) }, wantAddItemsOwn},
	}
	for _, c := range cases {
		got := trips(c.do)
		t.Logf("%s: %d round trips waited for, %d not", c.what, got.Waited, got.Unwaited)
		if got.Waited != c.want {
			t.Errorf("%s: %d round trips, want %d", c.what, got.Waited, c.want)
		}
	}
}
