package v1

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/encodetest"
	"github.com/costdb/costdb/domain"
)

// answerOf is what h.write answers with v.
func answerOf(h *handler, st int, v any) string {
	w := httptest.NewRecorder()
	h.write(w, st, v)
	return w.Header().Get("Content-Type") + " " + http.StatusText(w.Code) + "\n" + w.Body.String()
}

// TestEncoderMatchesReflection compares the answers written without
// reflection with what encoding/json wrote of the same records
// (reference_test.go), on many random records (encodetest): a composition,
// a resource and pages of each (empty ones too), with and without figures
// out of the bounds (then both answer the same 409).
func TestEncoderMatchesReflection(t *testing.T) {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	h := &handler{env: &httpapi.Env{Location: loc}}
	rng := rand.New(rand.NewPCG(12, 34))
	same := func(what, got, want string) {
		t.Helper()
		if got != want {
			t.Fatalf("%s: the encoder wrote\n%s\nreflection wrote\n%s", what, got, want)
		}
	}
	conflicts := 0
	for i := range 3000 {
		wild := i%3 == 0
		st := []int{http.StatusOK, http.StatusCreated}[i%2]
		pc := encodetest.Composition(rng, wild)
		got := answerOf(h, st, h.composition(pc))
		same("composition", got, answerOf(h, st, refComposition(h, pc)))
		if bytes.HasPrefix([]byte(got), []byte("application/json Conflict")) {
			conflicts++
		}
		res := encodetest.Resource(rng, wild)
		same("resource", answerOf(h, st, resourceToRecord(res)), answerOf(h, st, refResourceToRecord(res)))

		n := rng.IntN(4)
		if i%50 == 0 {
			n = 100
		}
		var pcs []*domain.PricedComposition
		var rs []*domain.Resource
		for range n {
			pcs = append(pcs, encodetest.Composition(rng, wild && rng.IntN(4) == 0))
			rs = append(rs, encodetest.Resource(rng, wild && rng.IntN(4) == 0))
		}
		pg := pagination{page: 1 + rng.IntN(3), perPage: 1 + rng.IntN(100)}
		total := rng.IntN(1000)
		if i%7 == 0 {
			total = 1_000_000_000_000_000 // out of the bounds
		}
		same("list of compositions", answerOf(h, 200, envelope(pg, total, pcs, h.composition)),
			answerOf(h, 200, envelope(pg, total, pcs, func(pc *domain.PricedComposition) refCompositionBody { return refComposition(h, pc) })))
		same("list of resources", answerOf(h, 200, envelope(pg, total, rs, resourceToRecord)),
			answerOf(h, 200, envelope(pg, total, rs, refResourceToRecord)))
		same("list without an encoder", answerOf(h, 200, envelope(pg, total, rs, func(r *domain.Resource) map[string]any {
			return map[string]any{"id": r.ID, "n": httpapi.Num(r.Locals["SP"].PND)}
		})), answerOf(h, 200, plainEnvelope[map[string]any](envelope(pg, total, rs, func(r *domain.Resource) map[string]any {
			return map[string]any{"id": r.ID, "n": httpapi.Num(r.Locals["SP"].PND)}
		}))))
	}
	if conflicts == 0 {
		t.Fatal("no record out of the bounds was drawn: the 409 was not compared")
	}
}
