package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/httpapi/server"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
)

const (
	v2Base = "/api/public/v2"
	v1Base = "/api/v1"
)

func mustStatus(t *testing.T, r *apitest.Response, want int) *apitest.Response {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	return r
}

func dataID(t *testing.T, r *apitest.Response) string {
	t.Helper()
	var doc struct {
		Data struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &doc); err != nil || doc.Data.ID == "" {
		t.Fatalf("no data.id in %s (%v)", r.Body, err)
	}
	return doc.Data.ID
}

// conditionalFixture is a company with a resource, a composition and a
// budget, and another company.
type conditionalFixture struct {
	h                      *apitest.Harness
	u, other               apitest.User
	resource, comp, budget string
	otherResource          string
}

func newConditionalFixture(t *testing.T) *conditionalFixture {
	h := apitest.New(t)
	f := &conditionalFixture{h: h, u: h.AddUser("Alfa", "a@alfa.com"), other: h.AddUser("Beta", "b@beta.com")}
	res := func(u apitest.User, code string) string {
		return dataID(t, mustStatus(t, h.Do("POST", v2Base+"/my_database/resources", u.Token,
			`{"data":{"type":"resources","attributes":{"code":"`+code+`","description":"Areia","unit":"M3","resource_type":4,"locals":{"MG":{"pnd":10,"pd":10}}}}}`), 201))
	}
	f.resource, f.otherResource = res(f.u, "R-1"), res(f.other, "R-1")
	f.comp = dataID(t, mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions", f.u.Token,
		`{"code":"C-1","description":"ALVENARIA","unit":"M2","type":"PARE","location":"MG"}`), 201))
	f.budget = dataID(t, mustStatus(t, h.Do("POST", v2Base+"/budgets", f.u.Token,
		`{"code":"ORC-1","description":"Obra","location":"MG","desonerado":false,"bdi":25,"bdi_mode":"unit_price","rounding":"truncate",
		"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
		"items":[{"kind":"stage","description":"Etapa","items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":2}]}]}`), 201))
	return f
}

// TestConditionalGets checks, in both generations, that every GET of a
// record, a list and a report carries an ETag; that If-None-Match with it
// answers 304 with no body; that a write of the company changes the tag
// (and the answer), and that a write of another company does not.
func TestConditionalGets(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	paths := []string{
		v2Base + "/my_database/resources/" + f.resource,
		v2Base + "/my_database/resources",
		v2Base + "/my_database/compositions/" + f.comp,
		v2Base + "/my_database/compositions",
		v2Base + "/budgets/" + f.budget,
		v2Base + "/budgets",
		v2Base + "/budgets/" + f.budget + "/reports/synthetic",
		v2Base + "/budgets/" + f.budget + "/reports/analytic",
		v2Base + "/budgets/" + f.budget + "/reports/abc",
		v1Base + "/base/mybase/resources/" + f.resource,
		v1Base + "/base/mybase/resources",
		v1Base + "/base/mybase/compositions/" + f.comp,
		v1Base + "/bud/budgets/" + f.budget,
		v1Base + "/bud/budgets/list",
		v1Base + "/bud/budgets/" + f.budget + "/synthetic",
	}
	tags := map[string]string{}
	for _, p := range paths {
		r := mustStatus(t, h.Do("GET", p, f.u.Token, ""), 200)
		tag := r.Header.Get("ETag")
		if tag == "" {
			t.Errorf("GET %s: no ETag", p)
			continue
		}
		tags[p] = tag
		nm := h.Do("GET", p, f.u.Token, "", "If-None-Match", tag)
		if nm.Status != 304 || len(nm.Body) != 0 || nm.Header.Get("ETag") != tag {
			t.Errorf("GET %s with If-None-Match %s: status %d, ETag %q, body %q; want 304, the same tag, no body", p, tag, nm.Status, nm.Header.Get("ETag"), nm.Body)
		}
		if again := mustStatus(t, h.Do("GET", p, f.u.Token, "", "If-None-Match", `W/"0.0.0000000000000000"`), 200); string(again.Body) != string(r.Body) {
			t.Errorf("GET %s again differs:\n%s\n%s", p, r.Body, again.Body)
		}
	}
	// Another company's write changes nothing of Alfa's.
	mustStatus(t, h.Do("PATCH", v2Base+"/my_database/resources/"+f.otherResource, f.other.Token,
		`{"data":{"type":"resources","id":"`+f.otherResource+`","attributes":{"description":"Brita"}}}`), 200)
	for _, p := range paths {
		if r := h.Do("GET", p, f.u.Token, "", "If-None-Match", tags[p]); r.Status != 304 {
			t.Errorf("GET %s after another company's write: status %d, want 304", p, r.Status)
		}
	}
	// Alfa's write changes every tag of Alfa.
	mustStatus(t, h.Do("PATCH", v2Base+"/my_database/resources/"+f.resource, f.u.Token,
		`{"data":{"type":"resources","id":"`+f.resource+`","attributes":{"description":"Areia grossa"}}}`), 200)
	for _, p := range paths {
		r := h.Do("GET", p, f.u.Token, "", "If-None-Match", tags[p])
		if r.Status != 200 || r.Header.Get("ETag") == tags[p] || r.Header.Get("ETag") == "" {
			t.Errorf("GET %s after a write: status %d, ETag %q (was %q); want 200 and a new tag", p, r.Status, r.Header.Get("ETag"), tags[p])
		}
	}
	// A tag is the caller's: Beta's tag of its own resource is not Alfa's.
	rb := mustStatus(t, h.Do("GET", v2Base+"/my_database/resources/"+f.otherResource, f.other.Token, ""), 200)
	if r := h.Do("GET", v2Base+"/my_database/resources/"+f.otherResource, f.u.Token, "", "If-None-Match", rb.Header.Get("ETag")); r.Status != 404 {
		t.Errorf("Alfa reading Beta's resource with Beta's tag: status %d, want 404", r.Status)
	}
}

// TestNoStaleRead writes and reads in a loop, in both generations, with and
// without If-None-Match, and never sees a value older than the write just
// acknowledged (the response cache and the tags are exact).
func TestNoStaleRead(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	var lastV1, lastV2 string // the tags read after the previous write
	for i := 0; i < 40; i++ {
		desc := fmt.Sprintf("Areia lote %d", i)
		if i%2 == 0 {
			mustStatus(t, h.Do("PATCH", v2Base+"/my_database/resources/"+f.resource, f.u.Token,
				`{"data":{"type":"resources","id":"`+f.resource+`","attributes":{"description":"`+desc+`"}}}`), 200)
		} else {
			mustStatus(t, h.Do("PUT", v1Base+"/base/mybase/resources/"+f.resource, f.u.Token, `{"description":"`+desc+`"}`), 200)
		}
		var tagV1, tagV2 string
		for j := 0; j < 3; j++ {
			r2 := mustStatus(t, h.Do("GET", v2Base+"/my_database/resources/"+f.resource, f.u.Token, "", "If-None-Match", lastV2), 200)
			r1 := mustStatus(t, h.Do("GET", v1Base+"/base/mybase/resources/"+f.resource, f.u.Token, "", "If-None-Match", lastV1), 200)
			var d2 struct {
				Data struct {
					Attributes struct {
						Description string `json:"description"`
					} `json:"attributes"`
				} `json:"data"`
			}
			var d1 struct {
				Description string `json:"description"`
			}
			if err := json.Unmarshal(r2.Body, &d2); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(r1.Body, &d1); err != nil {
				t.Fatal(err)
			}
			if d2.Data.Attributes.Description != desc || d1.Description != desc {
				t.Fatalf("write %d: read v2 %q, v1 %q; want %q", i, d2.Data.Attributes.Description, d1.Description, desc)
			}
			if j == 0 {
				tagV1, tagV2 = r1.Header.Get("ETag"), r2.Header.Get("ETag")
			} else if r1.Header.Get("ETag") != tagV1 || r2.Header.Get("ETag") != tagV2 {
				t.Errorf("write %d: the tag changed without a write", i)
			}
		}
		lastV1, lastV2 = tagV1, tagV2
	}
}

// TestNoStaleReadAcrossServers runs a second server (its own service, bank
// memo, verified-token and response caches) over the same store: a write
// through either server is seen at once by reads through the other, with
// and without If-None-Match, and a bank re-import through one changes the
// prices the other shows.
func TestNoStaleReadAcrossServers(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	ctx := context.Background()
	srv2 := secondServer(t, h)
	get2 := func(path, inm string) (int, string, string) { return srv2.get(f.u.Token, path, inm) }
	res := v1Base + "/base/mybase/resources/" + f.resource
	var tag1, tag2 string
	for i := 0; i < 20; i++ {
		desc := fmt.Sprintf("Areia servidor %d", i)
		if i%2 == 0 {
			mustStatus(t, h.Do("PUT", res, f.u.Token, `{"description":"`+desc+`"}`), 200)
		} else {
			req, _ := http.NewRequest("PUT", srv2.URL+res, strings.NewReader(`{"description":"`+desc+`"}`))
			req.Header.Set("Authorization", "Bearer "+f.u.Token)
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("PUT through the second server: %v %v", resp, err)
			}
			resp.Body.Close()
		}
		r1 := mustStatus(t, h.Do("GET", res, f.u.Token, "", "If-None-Match", tag1), 200)
		st, t2, body2 := get2(res, tag2)
		if st != 200 {
			t.Fatalf("write %d: second server answered %d to the previous tag", i, st)
		}
		if !strings.Contains(string(r1.Body), desc) || !strings.Contains(body2, desc) {
			t.Fatalf("write %d: want %q from both servers:\n%s\n%s", i, desc, r1.Body, body2)
		}
		if r1.Header.Get("ETag") != t2 {
			t.Errorf("write %d: the servers tag the same answer differently: %s, %s", i, r1.Header.Get("ETag"), t2)
		}
		tag1, tag2 = r1.Header.Get("ETag"), t2
	}
	// A re-import through the first service changes the price the second
	// server shows (its bank memo and response cache follow the global
	// generation).
	comp := v1Base + "/base/mybase/compositions/" + f.comp
	mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions/"+f.comp+"/add_banks", f.u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions/"+f.comp+"/add_items", f.u.Token, `{"items":[{"bank":"SINAPI","code":"34586","quantity":10,"resource":true}]}`), 200)
	if _, _, body := get2(comp, ""); !strings.Contains(body, `"unitary_pnd":2.62`) {
		t.Fatalf("before the re-import: %s", body)
	}
	_, err := h.App.ImportEditions(ctx, []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
		Resources: []*domain.BankResource{{Code: "34586", Description: "BLOCO ESTRUTURAL CERAMICO", Unit: "UN", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: domain.Dec("3.15"), PD: domain.Dec("3.15")}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, body := get2(comp, ""); !strings.Contains(body, `"unitary_pnd":3.15`) {
		t.Errorf("after the re-import through the other server: %s", body)
	}
}

// TestCachedAnswerKeepsItsRequestID checks that an answer served from the
// response cache carries the request id of its own request, not that of
// the request it was first rendered for.
func TestCachedAnswerKeepsItsRequestID(t *testing.T) {
	h := apitest.New(t, func(e *httpapi.Env) { e.AccessLog = slog.New(slog.NewTextHandler(io.Discard, nil)) })
	u := h.AddUser("Alfa", "a@alfa.com")
	path := v2Base + "/my_database/resources"
	var tags []string
	for _, id := range []string{"first-request", "second-request", "third-request"} {
		r := mustStatus(t, h.Do("GET", path, u.Token, "", "X-Request-Id", id), 200)
		if got := r.Header.Get("X-Request-Id"); got != id {
			t.Errorf("X-Request-Id %q, want %q", got, id)
		}
		tags = append(tags, r.Header.Get("ETag"))
	}
	if tags[0] == "" || tags[0] != tags[1] || tags[1] != tags[2] {
		t.Errorf("tags %v: want one tag, the answers are the same", tags)
	}
}

// TestFreezingChangesTheTag checks that freezing a budget version (a write
// through the store's version operations) changes the tag of the list of
// versions: its old tag is not a 304, and the list shows the new version.
func TestFreezingChangesTheTag(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	path := v2Base + "/budgets/" + f.budget + "/versions"
	before := mustStatus(t, h.Do("GET", path, f.u.Token, ""), 200)
	tag := before.Header.Get("ETag")
	if r := h.Do("POST", path, f.u.Token, ""); r.Status/100 != 2 {
		t.Fatalf("freeze: %d %s", r.Status, r.Body)
	}
	after := h.Do("GET", path, f.u.Token, "", "If-None-Match", tag)
	if after.Status != 200 || after.Header.Get("ETag") == tag || string(after.Body) == string(before.Body) {
		t.Errorf("versions after a freeze, with the tag of before: status %d, tag %q (was %q), body changed: %v",
			after.Status, after.Header.Get("ETag"), tag, string(after.Body) != string(before.Body))
	}
}

// TestWholeAnswersCarryTheirLength: an answer computed whole (a record, a
// list, an error, a write's answer, in both generations, rendered or from
// the cache) goes out with its Content-Length, not chunked, over 2 KB too.
func TestWholeAnswersCarryTheirLength(t *testing.T) {
	f := newConditionalFixture(t)
	h := f.h
	var items []string
	for _, code := range []string{"7153", "12868", "34556", "34564", "34565", "34586", "34588", "34649", "34655", "34781"} {
		items = append(items, `{"bank":"SINAPI","code":"`+code+`","quantity":1.5,"resource":true}`)
	}
	mustStatus(t, h.Do("POST", v2Base+"/my_database/compositions/"+f.comp+"/add_banks", f.u.Token, `{"banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}]}`), 200)
	added := h.Do("POST", v2Base+"/my_database/compositions/"+f.comp+"/add_items", f.u.Token, `{"items":[`+strings.Join(items, ",")+`]}`)
	mustStatus(t, added, 200)
	answers := map[string]*apitest.Response{
		"v2 add_items":         added,
		"v2 composition":       h.Do("GET", v2Base+"/my_database/compositions/"+f.comp, f.u.Token, ""),
		"v2 composition again": h.Do("GET", v2Base+"/my_database/compositions/"+f.comp, f.u.Token, ""),
		"v2 list":              h.Do("GET", v2Base+"/my_database/compositions", f.u.Token, ""),
		"v2 not found":         h.Do("GET", v2Base+"/my_database/compositions/nope", f.u.Token, ""),
		"v2 unauthenticated":   h.Do("GET", v2Base+"/my_database/compositions", "", ""),
		"v1 composition":       h.Do("GET", v1Base+"/base/mybase/compositions/"+f.comp, f.u.Token, ""),
		"v1 resources":         h.Do("GET", v1Base+"/base/mybase/resources", f.u.Token, ""),
		"v1 not found":         h.Do("GET", v1Base+"/base/mybase/compositions/nope", f.u.Token, ""),
	}
	large := 0
	for name, r := range answers {
		if got, want := r.Header.Get("Content-Length"), fmt.Sprint(len(r.Body)); got != want {
			t.Errorf("%s (status %d): Content-Length %q, want %s", name, r.Status, got, want)
		}
		if len(r.Body) > 2048 {
			large++
		}
	}
	if large < 2 {
		t.Fatalf("only %d answers over 2 KB: the test does not reach past net/http's buffer", large)
	}
}

// server2 is a second server over a harness's store (its own service, bank
// memo, verified-token and response caches), as another process sharing
// the database would be.
type server2 struct {
	*httptest.Server
	t   *testing.T
	svc *app.Service // its own service over the store
}

func secondServer(t *testing.T, h *apitest.Harness) *server2 {
	t.Helper()
	key, err := app.New(h.Store, nil, app.Config{}).SigningKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := jwtauth.New(key)
	if err != nil {
		t.Fatal(err)
	}
	speed2 := storecache.New(h.Store) // another server: its own caches
	svc2 := app.New(speed2, tokens, app.Config{})
	env2 := *h.Env
	env2.App, env2.Speed = svc2, speed2
	srv := httptest.NewServer(server.Handler(&env2))
	t.Cleanup(srv.Close)
	return &server2{Server: srv, t: t, svc: svc2}
}

// get answers a GET through the second server: status, ETag and body.
func (s *server2) get(token, path, inm string) (int, string, string) {
	s.t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("ETag"), string(b)
}
