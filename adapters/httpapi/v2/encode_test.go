package v2

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/encodetest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// answer is what a handler wrote.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func record(f func(w http.ResponseWriter)) answer {
	w := httptest.NewRecorder()
	f(w)
	return answer{w.Code, w.Header(), w.Body.Bytes()}
}

// sameAnswer fails unless got and want are the same answer, byte for byte.
func sameAnswer(t *testing.T, what string, got, want answer) {
	t.Helper()
	if got.status != want.status || got.header.Get("Content-Type") != want.header.Get("Content-Type") || !bytes.Equal(got.body, want.body) {
		t.Fatalf("%s: the encoder wrote\n%d %s\n%s\nreflection wrote\n%d %s\n%s", what,
			got.status, got.header.Get("Content-Type"), got.body, want.status, want.header.Get("Content-Type"), want.body)
	}
}

// encRequest is a GET of path as the v2 router sees it below /api/public/v2.
func encRequest(path string, p domain.Principal) *http.Request {
	r := httptest.NewRequest("GET", "/api/public/v2"+path, nil)
	rctx := chi.NewRouteContext()
	rctx.RoutePath = path
	ctx := context.WithValue(httpapi.WithPrincipal(r.Context(), p), chi.RouteCtxKey, rctx)
	var out *http.Request
	httpapi.RememberRoutePath(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { out = r })).
		ServeHTTP(httptest.NewRecorder(), r.WithContext(ctx))
	return out
}

func testHandlers(t testing.TB) *handlers {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	return &handlers{env: &httpapi.Env{Location: loc}}
}

// TestEncoderMatchesReflection compares the documents written without
// reflection with what google/jsonapi and encoding/json wrote of the same
// records (reference_test.go), on many random records (encodetest): one
// composition with its items or without (a list's), lists of them with
// the page links and total, a resource and lists of resources, with and
// without figures out of the bounds (then both answer the same 409).
func TestEncoderMatchesReflection(t *testing.T) {
	h := testHandlers(t)
	rng := rand.New(rand.NewPCG(11, 42))
	r := encRequest("/my_database/compositions", domain.Principal{})
	listReq := encRequest("/my_database/compositions?sort=-code&filter[search]=a%20b&page[number]=2&page[size]=3", domain.Principal{})
	pg := pageQuery{Number: 2, Size: 3}
	conflicts := 0
	for i := range 3000 {
		wild := i%3 == 0
		pc := encodetest.Composition(rng, wild)
		withItems := i%4 != 0
		st := []int{http.StatusOK, http.StatusCreated}[i%2]
		got := record(func(w http.ResponseWriter) { h.writeDoc(w, r, st, h.compositionDoc(pc, withItems)) })
		want := record(func(w http.ResponseWriter) { h.writeDoc(w, r, st, refComposition(h, pc, withItems)) })
		sameAnswer(t, "composition", got, want)
		if got.status == http.StatusConflict {
			conflicts++
		}

		meta := &jsonapi.Meta{"created": []map[string]string{{"id": encodetest.Text(rng), "code": "x"}}, "total": i}
		got = record(func(w http.ResponseWriter) { h.writeDocWith(w, r, st, h.compositionDoc(pc, true), nil, meta) })
		want = record(func(w http.ResponseWriter) { h.writeDocWith(w, r, st, refComposition(h, pc, true), nil, meta) })
		sameAnswer(t, "composition with meta", got, want)

		res := encodetest.Resource(rng, wild)
		got = record(func(w http.ResponseWriter) { h.writeDoc(w, r, st, h.resourceDoc(res)) })
		want = record(func(w http.ResponseWriter) { h.writeDoc(w, r, st, refResource(h, res)) })
		sameAnswer(t, "resource", got, want)

		n := rng.IntN(5)
		if i%50 == 0 {
			n = 100
		}
		var docs []*compositionDoc
		var refs []*refCompositionDoc
		var rdocs []*resourceDoc
		var rrefs []*refResourceDoc
		for range n {
			pc := encodetest.Composition(rng, wild && rng.IntN(4) == 0)
			docs, refs = append(docs, h.compositionDoc(pc, false)), append(refs, refComposition(h, pc, false))
			res := encodetest.Resource(rng, wild && rng.IntN(4) == 0)
			rdocs, rrefs = append(rdocs, h.resourceDoc(res)), append(rrefs, refResource(h, res))
		}
		if n == 0 && i%2 == 0 { // an empty page, as the handlers make it
			docs, refs, rdocs, rrefs = []*compositionDoc{}, []*refCompositionDoc{}, []*resourceDoc{}, []*refResourceDoc{}
		}
		total := rng.IntN(1000)
		got = record(func(w http.ResponseWriter) {
			h.writeCompound(w, listReq, http.StatusOK, docs, pg.links(listReq, total), totalMeta(total), nil)
		})
		want = record(func(w http.ResponseWriter) {
			h.writeCompound(w, listReq, http.StatusOK, refs, pg.links(listReq, total), totalMeta(total), nil)
		})
		sameAnswer(t, "list of compositions", got, want)
		got = record(func(w http.ResponseWriter) {
			h.writeCompound(w, listReq, http.StatusOK, rdocs, pg.links(listReq, total), totalMeta(total), nil)
		})
		want = record(func(w http.ResponseWriter) {
			h.writeCompound(w, listReq, http.StatusOK, rrefs, pg.links(listReq, total), totalMeta(total), nil)
		})
		sameAnswer(t, "list of resources", got, want)
	}
	if conflicts == 0 {
		t.Fatal("no record out of the bounds was drawn: the 409 was not compared")
	}
}

// TestEncoderMatchesReflectionIncluded compares compound documents
// (include=user,sector,group) of records whose relationships name records
// that exist, that do not, and none.
func TestEncoderMatchesReflectionIncluded(t *testing.T) {
	st, err := boltstore.Open(filepath.Join(t.TempDir(), "costdb.db"), boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := app.New(st, nil, app.Config{})
	ctx := context.Background()
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: "ACME", Email: "a@example.com", Name: `Ana "<ção>"`})
	if err != nil {
		t.Fatal(err)
	}
	p := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
	g, err := svc.CreateGroup(ctx, p, app.GroupInput{Description: "Grupo \u2028 & <b>"})
	if err != nil {
		t.Fatal(err)
	}
	h := testHandlers(t)
	h.env.App = svc
	rng := rand.New(rand.NewPCG(7, 9))
	pick := func(ids ...string) string { return ids[rng.IntN(len(ids))] }
	for i := range 300 {
		inc := [][]string{{"user"}, {"sector", "group"}, {"group", "user", "sector"}, {}}[i%4]
		r := encRequest("/my_database/compositions/x", p)
		var docs []*compositionDoc
		var refs []*refCompositionDoc
		var rdocs []*resourceDoc
		var rrefs []*refResourceDoc
		for range 1 + rng.IntN(4) {
			pc := encodetest.Composition(rng, false)
			pc.UserID, pc.DepartmentID, pc.GroupID = pick(p.UserID, "nobody", ""), pick(p.DepartmentID, "none"), pick(g.ID, "", "gone")
			docs, refs = append(docs, h.compositionDoc(pc, i%2 == 0)), append(refs, refComposition(h, pc, i%2 == 0))
			res := encodetest.Resource(rng, false)
			res.UserID, res.DepartmentID, res.GroupID = pick(p.UserID, "nobody"), pick(p.DepartmentID, "none", ""), pick(g.ID, "")
			rdocs, rrefs = append(rdocs, h.resourceDoc(res)), append(rrefs, refResource(h, res))
		}
		sameAnswer(t, "composition with included",
			record(func(w http.ResponseWriter) { h.writeRead(w, r, docs[0], inc) }),
			record(func(w http.ResponseWriter) { h.writeRead(w, r, refs[0], inc) }))
		sameAnswer(t, "resource with included",
			record(func(w http.ResponseWriter) { h.writeRead(w, r, rdocs[0], inc) }),
			record(func(w http.ResponseWriter) { h.writeRead(w, r, rrefs[0], inc) }))
		sameAnswer(t, "list of compositions with included",
			record(func(w http.ResponseWriter) { h.writeCompound(w, r, 200, docs, nil, totalMeta(len(docs)), inc) }),
			record(func(w http.ResponseWriter) { h.writeCompound(w, r, 200, refs, nil, totalMeta(len(docs)), inc) }))
		sameAnswer(t, "list of resources with included",
			record(func(w http.ResponseWriter) { h.writeCompound(w, r, 200, rdocs, nil, totalMeta(len(docs)), inc) }),
			record(func(w http.ResponseWriter) { h.writeCompound(w, r, 200, rrefs, nil, totalMeta(len(docs)), inc) }))
	}
}
