package pgbench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/bench/benchfix"
)

// The two requests of the load script's P1 and P6 on PostgreSQL, one at a
// time, on a generated company like the load's (compositions of 16 SINAPI
// items and 4 own resources), so that their latency is mostly their round
// trips (issue 29, item 4): a rendered v2 GET of a composition (the server
// without the response cache) and an add_items to one.

func generated(b *testing.B) (*benchfix.Fixture, []string) {
	f := fixture(b)
	co, err := benchfix.GenerateCompany(context.Background(), storecache.New(f.Store), "bench@example.com", 200, 2000, 20, 29)
	if err != nil {
		b.Fatal(err)
	}
	return f, co.Compositions
}

// BenchmarkRenderedGetPG is a rendered v2 GET of one of 200 generated
// compositions in turn.
func BenchmarkRenderedGetPG(b *testing.B) {
	f, comps := generated(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		req := httptest.NewRequest("GET", "/api/public/v2/my_database/compositions/"+comps[i%len(comps)], nil)
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.RenderH.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("GET: %d %s", w.Code, w.Body.String())
		}
	}
}

// BenchmarkAddItemsOwnPG is add_items to one of 200 generated compositions
// in turn (each with 4 own resources, as in the load).
func BenchmarkAddItemsOwnPG(b *testing.B) {
	f, comps := generated(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		body := fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"%s","quantity":%d.5,"resource":true}]}`, benchfix.ItemCodes[i%14].Code, i%1000+1)
		req := httptest.NewRequest("POST", "/api/public/v2/my_database/compositions/"+comps[i%len(comps)]+"/add_items", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.Token)
		w := httptest.NewRecorder()
		f.H.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("add_items: %d %s", w.Code, w.Body.String())
		}
	}
}
