// Package pgbench holds the write-path benchmarks of bench on PostgreSQL
// (a throwaway cluster of pgtest): add_items through the whole HTTP
// handler, one writer and eight, on the fixed data set of benchfix.
package pgbench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/bench/benchfix"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func fixture(b *testing.B) *benchfix.Fixture {
	if err := pgtest.Available(); err != nil {
		b.Skip(err)
	}
	st, err := pgstore.Open(context.Background(), pgtest.NewDatabase(b), pgstore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	f := benchfix.SetupStore(st, "", 8)
	b.Cleanup(f.Close)
	return f
}

func addItems(f *benchfix.Fixture, comp string, i int) *httptest.ResponseRecorder {
	body := fmt.Sprintf(`{"items":[{"bank":"SINAPI","code":"%s","quantity":%d.5,"resource":true}]}`, benchfix.ItemCodes[i%14].Code, i%1000+1)
	req := httptest.NewRequest("POST", "/api/public/v2/my_database/compositions/"+comp+"/add_items", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.Token)
	w := httptest.NewRecorder()
	f.H.ServeHTTP(w, req)
	return w
}

// BenchmarkAddItemsPG is bench's BenchmarkAddItems on PostgreSQL.
func BenchmarkAddItemsPG(b *testing.B) {
	f := fixture(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if w := addItems(f, f.Comps[0], i); w.Code != http.StatusOK {
			b.Fatalf("add_items: %d %s", w.Code, w.Body.String())
		}
	}
}

// BenchmarkAddItemsParallelPG is bench's BenchmarkAddItemsParallel on
// PostgreSQL: 8 writers, one per composition.
func BenchmarkAddItemsParallelPG(b *testing.B) {
	f := fixture(b)
	b.ReportAllocs()
	b.SetParallelism((len(f.Comps) + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		w := int(next.Add(1) - 1)
		for i := 0; pb.Next(); i++ {
			if rec := addItems(f, f.Comps[w%len(f.Comps)], w+i); rec.Code != http.StatusOK {
				b.Errorf("add_items: %d %s", rec.Code, rec.Body.String())
				return
			}
		}
	})
}
