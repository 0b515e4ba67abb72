package v1

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/encodetest"
	"github.com/costdb/costdb/domain"
)

// benchComposition is a priced composition of n items within the bounds.
func benchComposition(n int) *domain.PricedComposition {
	rng := rand.New(rand.NewPCG(1, 2))
	for {
		pc := encodetest.Composition(rng, false)
		if len(pc.Items) == 0 {
			continue
		}
		for len(pc.Items) < n {
			pc.Items = append(pc.Items, pc.Items...)
		}
		pc.Items = pc.Items[:n]
		return pc
	}
}

// BenchmarkEncode is the answer's writing alone, the table-driven writer
// against encoding/json of the reference structs (reference_test.go): a
// composition of 20 items and a page of 100 resources. docs/decisions.md
// ("The hottest answers are written from tables of members") sets them
// beside the requests they are part of.
func BenchmarkEncode(b *testing.B) {
	h := &handler{env: &httpapi.Env{Location: time.UTC}}
	pc := benchComposition(20)
	rng := rand.New(rand.NewPCG(3, 4))
	var rs []*domain.Resource
	for range 100 {
		rs = append(rs, encodetest.Resource(rng, false))
	}
	pg := pagination{page: 1, perPage: 100}
	for _, c := range []struct {
		name string
		v    func() any
	}{
		{"composition20/writer", func() any { return h.composition(pc) }},
		{"composition20/encoding_json", func() any { return refComposition(h, pc) }},
		{"resources100/writer", func() any { return envelope(pg, 1000, rs, resourceToRecord) }},
		{"resources100/encoding_json", func() any { return envelope(pg, 1000, rs, refResourceToRecord) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.write(w, 200, c.v())
				if w.Code != 200 {
					b.Fatal(fmt.Sprint(w.Code, w.Body.String()))
				}
			}
		})
	}
}
