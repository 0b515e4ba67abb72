package v2

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/encodetest"
	"github.com/costdb/costdb/domain"
)

// BenchmarkEncode is the document's writing alone, the table-driven writer
// against google/jsonapi and encoding/json of the reference structs
// (reference_test.go): a composition of 20 items and a page of 100
// resources. docs/decisions.md ("The hottest answers are written from
// tables of members") sets them beside the requests they are part of.
func BenchmarkEncode(b *testing.B) {
	h := testHandlers(b)
	rng := rand.New(rand.NewPCG(1, 2))
	var pc *domain.PricedComposition
	for pc == nil || len(pc.Items) == 0 {
		pc = encodetest.Composition(rng, false)
	}
	for len(pc.Items) < 20 {
		pc.Items = append(pc.Items, pc.Items...)
	}
	pc.Items = pc.Items[:20]
	for i := range pc.Items { // distinct lines, as a composition has
		pc.Items[i].Code = pc.Items[i].Code + string(rune('a'+i))
	}
	var rdocs []*resourceDoc
	var rrefs []*refResourceDoc
	for range 100 {
		res := encodetest.Resource(rng, false)
		rdocs, rrefs = append(rdocs, h.resourceDoc(res)), append(rrefs, refResource(h, res))
	}
	r := encRequest("/my_database/compositions", domain.Principal{})
	listReq := encRequest("/my_database/resources?page[size]=100", domain.Principal{})
	pg := pageQuery{Number: 1, Size: 100}
	for _, c := range []struct {
		name  string
		write func(w http.ResponseWriter)
	}{
		{"composition20/writer", func(w http.ResponseWriter) { h.writeDoc(w, r, 200, h.compositionDoc(pc, true)) }},
		{"composition20/jsonapi", func(w http.ResponseWriter) { h.writeDoc(w, r, 200, refComposition(h, pc, true)) }},
		{"resources100/writer", func(w http.ResponseWriter) {
			h.writeCompound(w, listReq, 200, rdocs, pg.links(listReq, 1000), totalMeta(1000), nil)
		}},
		{"resources100/jsonapi", func(w http.ResponseWriter) {
			h.writeCompound(w, listReq, 200, rrefs, pg.links(listReq, 1000), totalMeta(1000), nil)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				c.write(w)
				if w.Code != 200 {
					b.Fatal(w.Code, w.Body.String())
				}
			}
		})
	}
}
