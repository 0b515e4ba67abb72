package webhooks_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/webhooks"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

type obj = map[string]any

// receiver is a webhook endpoint on loopback that records what it gets
// and answers status (503 while down).
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	got      []delivery
	status   int
	hang     chan struct{} // when not nil, requests wait on it
	secret   string
	verified []error
}

type delivery struct {
	ID, Event, Resource string
	Data                obj
	Header              http.Header
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{status: 200}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		hang, status, secret := rc.hang, rc.status, rc.secret
		rc.mu.Unlock()
		if hang != nil {
			select {
			case <-hang:
			case <-r.Context().Done():
			}
			return
		}
		if status != 200 {
			w.WriteHeader(status)
			return
		}
		var d delivery
		if err := json.Unmarshal(body, &d); err != nil {
			t.Errorf("delivery body: %v\n%s", err, body)
		}
		d.Header = r.Header.Clone()
		rc.mu.Lock()
		rc.got = append(rc.got, d)
		rc.verified = append(rc.verified, webhooks.Verify(secret, r.Header.Get(webhooks.HeaderSignature), body, time.Now(), 5*time.Minute))
		rc.mu.Unlock()
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) set(status int) {
	rc.mu.Lock()
	rc.status = status
	rc.mu.Unlock()
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

func expect(t *testing.T, r *apitest.Response, status int) obj {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d\n%s", r.Status, status, r.Body)
	}
	var doc obj
	if len(r.Body) > 0 {
		if err := json.Unmarshal(r.Body, &doc); err != nil {
			t.Fatal(err)
		}
	}
	return doc
}

func attrs(doc obj) obj { return doc["data"].(obj)["attributes"].(obj) }

const budgetBody = `{"code":"ORC-W","description":"Obra","location":"MG","bdi":25,
  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
  "items":[{"kind":"composition","bank":"SINAPI","code":"89306","quantity":10}]}`

// TestPrivateAddressesRefused: by default a webhook's URL may not name a
// private, loopback, link-local or unspecified address; every bad field is
// named at once.
func TestPrivateAddressesRefused(t *testing.T) {
	h := apitest.NewWithConfig(t, app.Config{WebhookURLCheck: webhooks.CheckURL(false, nil)})
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	for _, url := range []string{"http://127.0.0.1:9/hook", "http://localhost/hook", "http://10.0.0.7/hook", "http://192.168.1.1/",
		"http://169.254.169.254/latest/meta-data", "http://[::1]/", "http://0.0.0.0/", "http://100.64.0.1/"} {
		r := h.Do("POST", "/api/public/v2/webhooks", u.Token, `{"url":"`+url+`","events":["budget.frozen"]}`)
		if r.Status != 422 || !strings.Contains(string(r.Body), "/url") {
			t.Errorf("%s: %d %s", url, r.Status, r.Body)
		}
	}
	r := h.Do("POST", "/api/public/v2/webhooks", u.Token, `{"url":"ftp://example.com/x","events":["budget.frozen","nope"]}`)
	if r.Status != 422 || !strings.Contains(string(r.Body), "/url") || !strings.Contains(string(r.Body), "/events/1") {
		t.Errorf("two bad fields: %d %s", r.Status, r.Body)
	}
	if doc := expect(t, h.Do("GET", "/api/public/v2/webhooks", u.Token, ""), 200); len(doc["data"].([]any)) != 0 {
		t.Errorf("a refused webhook was written: %v", doc)
	}
}

// TestDeliveries: a receiver on loopback (allowed) gets each event once,
// signed; a receiver down gets the backlog in order when it returns; a
// receiver that never answers is cut at the timeout; a delivery past its
// window is dead, listed and replayable; the secret is shown once; another
// company sees none of it.
func TestDeliveries(t *testing.T) {
	h := apitest.NewWithConfig(t, app.Config{WebhookURLCheck: webhooks.CheckURL(true, nil)})
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")
	rc := newReceiver(t)
	doc := expect(t, h.Do("POST", "/api/public/v2/webhooks", u.Token, `{"data":{"type":"webhooks","attributes":{"url":"`+rc.URL+`/costdb",
	  "events":["budget.frozen","edition.imported","contract.created"]}}}`), 201)
	hook := doc["data"].(obj)["id"].(string)
	secret, _ := attrs(doc)["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q", secret)
	}
	rc.secret = secret
	if a := attrs(expect(t, h.Do("GET", "/api/public/v2/webhooks/"+hook, u.Token, ""), 200)); a["secret"] != nil {
		t.Errorf("the secret is read again: %v", a)
	}
	d := &webhooks.Dispatcher{App: h.App, BaseURL: h.URL, AllowPrivate: true, Timeout: 2 * time.Second,
		Policy: domain.RetryPolicy{Base: 5 * time.Millisecond, Max: 10 * time.Millisecond, Window: time.Hour}}
	ctx := context.Background()
	drain := func() {
		t.Helper()
		for range 200 {
			n, err := d.Once(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				if pending := deliveries(t, h, u.Token, hook, "pending"); len(pending) == 0 {
					return
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		t.Fatal("deliveries still pending")
	}

	budget := expect(t, h.Do("POST", "/api/public/v2/budgets", u.Token, budgetBody), 201)["data"].(obj)["id"].(string)
	vpath := "/api/public/v2/budgets/" + budget + "/versions"
	expect(t, h.Do("POST", vpath, u.Token, ""), 201)
	drain()
	got := rc.deliveries()
	if len(got) != 1 || got[0].Event != "budget.frozen" || got[0].Resource != h.URL+vpath+"/1" || got[0].Data["version"] != float64(1) ||
		got[0].Header.Get(webhooks.HeaderDelivery) != got[0].ID || rc.verified[0] != nil {
		t.Fatalf("the first delivery: %+v (signature: %v)", got, rc.verified)
	}
	if n, _ := d.Once(ctx); n != 0 || len(rc.deliveries()) != 1 {
		t.Fatalf("delivered again: %d", len(rc.deliveries()))
	}

	// A bank edition imported: every company's webhooks that want it.
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := eds[0]
	e.Edition.Month = "09/2026"
	if _, err := h.App.ImportEditions(ctx, []app.EditionData{{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}}); err != nil {
		t.Fatal(err)
	}
	drain()
	if got := rc.deliveries(); len(got) != 2 || got[1].Event != "edition.imported" || got[1].Data["month"] != "09/2026" ||
		!strings.HasSuffix(got[1].Resource, "/api/public/v2/banks/SINAPI-MG-2026-09") {
		t.Fatalf("the edition's delivery: %+v", got)
	}

	// Down for a while: the backlog arrives in order once it is back.
	rc.set(503)
	for range 3 {
		expect(t, h.Do("POST", vpath, u.Token, ""), 201)
	}
	for range 5 {
		if _, err := d.Once(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	pending := deliveries(t, h, u.Token, hook, "pending")
	if len(pending) != 3 || pending[0]["attempts"].(float64) < 2 || pending[1]["attempts"] != float64(0) || pending[0]["last_error"] != "answered 503 Service Unavailable" {
		t.Fatalf("while down: the head retried, the rest waiting: %v", pending)
	}
	rc.set(200)
	drain()
	got = rc.deliveries()
	var versions []float64
	for _, g := range got[2:] {
		versions = append(versions, g.Data["version"].(float64))
	}
	if len(versions) != 3 || versions[0] != 2 || versions[1] != 3 || versions[2] != 4 {
		t.Fatalf("the backlog: versions %v, want [2 3 4]", versions)
	}
	for i, err := range rc.verified {
		if err != nil {
			t.Errorf("delivery %d: %v", i, err)
		}
	}

	// A receiver that never answers is cut at the timeout.
	hang := make(chan struct{})
	rc.mu.Lock()
	rc.hang = hang
	rc.mu.Unlock()
	slow := &webhooks.Dispatcher{App: h.App, BaseURL: h.URL, AllowPrivate: true, Timeout: 200 * time.Millisecond,
		Policy: domain.RetryPolicy{Base: time.Hour, Max: time.Hour, Window: 2 * time.Hour}}
	expect(t, h.Do("POST", vpath, u.Token, ""), 201)
	if n, err := slow.Once(ctx); n != 1 || err != nil {
		t.Fatalf("the hanging receiver's attempt: %d %v", n, err)
	}
	pending = deliveries(t, h, u.Token, hook, "pending")
	if len(pending) != 1 || pending[0]["attempts"] != float64(1) || !strings.Contains(pending[0]["last_error"].(string), "Timeout") {
		t.Fatalf("cut at the timeout: %v", pending)
	}
	close(hang)
	rc.mu.Lock()
	rc.hang = nil
	rc.mu.Unlock()

	// Past its window a delivery is dead: listed, then replayed.
	deadID := pending[0]["id"].(string)
	replay := "/api/public/v2/webhooks/" + hook + "/deliveries/" + deadID + "/replay"
	if r := h.Do("POST", replay, u.Token, ""); r.Status != 409 {
		t.Errorf("replay of a pending delivery: %d %s", r.Status, r.Body)
	}
	// Its next failure falls past a window of a millisecond.
	if err := h.App.FinishDelivery(ctx, deadID, false, "timeout again", domain.RetryPolicy{Base: time.Hour, Max: time.Hour, Window: time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	deadList := deliveries(t, h, u.Token, hook, "dead")
	if len(deadList) != 1 || deadList[0]["id"] != deadID || deadList[0]["attempts"] != float64(2) {
		t.Fatalf("the dead letters: %v", deadList)
	}
	if a := attrs(expect(t, h.Do("POST", replay, u.Token, ""), 200)); a["state"] != "pending" || a["attempts"] != float64(0) {
		t.Fatalf("replayed: %v", a)
	}
	drain()
	if got := rc.deliveries(); got[len(got)-1].ID != deadID || got[len(got)-1].Data["version"] != float64(5) {
		t.Fatalf("the replayed delivery: %+v", got[len(got)-1])
	}

	// Another company sees nothing of it.
	for _, path := range []string{"/api/public/v2/webhooks/" + hook, "/api/public/v2/webhooks/" + hook + "/deliveries"} {
		if r := h.Do("GET", path, other.Token, ""); r.Status != 404 {
			t.Errorf("%s for another company: %d", path, r.Status)
		}
	}
	if r := h.Do("POST", replay, other.Token, ""); r.Status != 404 {
		t.Errorf("replay for another company: %d", r.Status)
	}
	if r := h.Do("DELETE", "/api/public/v2/webhooks/"+hook, other.Token, ""); r.Status != 404 {
		t.Errorf("delete for another company: %d", r.Status)
	}
	// Deleted, with its deliveries; a new freeze writes none.
	if r := h.Do("DELETE", "/api/public/v2/webhooks/"+hook, u.Token, ""); r.Status != 204 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	expect(t, h.Do("POST", vpath, u.Token, ""), 201)
	if n, _ := d.Once(ctx); n != 0 {
		t.Errorf("a deleted webhook's event was sent")
	}
}

// deliveries lists a webhook's deliveries of a state through the API.
func deliveries(t *testing.T, h *apitest.Harness, token, hook, state string) []obj {
	t.Helper()
	doc := expect(t, h.Do("GET", "/api/public/v2/webhooks/"+hook+"/deliveries?filter[state]="+state, token, ""), 200)
	var out []obj
	for _, x := range doc["data"].([]any) {
		a := attrs(obj{"data": x})
		a["id"] = x.(obj)["id"]
		out = append(out, a)
	}
	return out
}

func TestSignature(t *testing.T) {
	body := []byte(`{"id":"x"}`)
	at := time.Unix(1767225600, 0)
	sig := webhooks.Sign("whsec_k", at, body)
	if !strings.HasPrefix(sig, "t=1767225600,v1=") {
		t.Fatalf("header %q", sig)
	}
	if err := webhooks.Verify("whsec_k", sig, body, at.Add(time.Minute), 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		secret string
		body   string
		now    time.Time
	}{{"whsec_other", `{"id":"x"}`, at}, {"whsec_k", `{"id":"y"}`, at}, {"whsec_k", `{"id":"x"}`, at.Add(time.Hour)}} {
		if err := webhooks.Verify(tc.secret, sig, []byte(tc.body), tc.now, 5*time.Minute); err == nil {
			t.Errorf("%+v verified", tc)
		}
	}
}

// TestEventsOfChangeLogsAndContracts: a change log touching a code the
// company's budget uses tells that company (with the codes), not another
// whose records use none; making a contract and approving its measurement
// are told too.
func TestEventsOfChangeLogsAndContracts(t *testing.T) {
	h := apitest.NewWithConfig(t, app.Config{WebhookURLCheck: webhooks.CheckURL(true, nil)})
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	other := h.AddUser("Construtora Beta", "bia@beta.com.br")
	rc, rcOther := newReceiver(t), newReceiver(t)
	register := func(tok string, rc *receiver) {
		doc := expect(t, h.Do("POST", "/api/public/v2/webhooks", tok, `{"url":"`+rc.URL+`/h",
		  "events":["bank.changes","contract.created","measurement.approved","amendment.created"]}`), 201)
		rc.secret = attrs(doc)["secret"].(string)
	}
	register(u.Token, rc)
	register(other.Token, rcOther)
	d := &webhooks.Dispatcher{App: h.App, BaseURL: h.URL, AllowPrivate: true, Timeout: 2 * time.Second}
	ctx := context.Background()
	drain := func() {
		for {
			n, err := d.Once(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				return
			}
		}
	}
	budget := expect(t, h.Do("POST", "/api/public/v2/budgets", u.Token, budgetBody), 201)["data"].(obj)["id"].(string)
	if _, err := h.App.ImportChangeLog(ctx, "SINAPI", []domain.BankChange{
		{Month: "08/2026", Composition: true, Code: "89306", Kind: domain.ChangeDescription, Text: "nova descrição"},
		{Month: "08/2026", Composition: true, Code: "99999", Kind: domain.ChangeDeactivated},
	}); err != nil {
		t.Fatal(err)
	}
	drain()
	got := rc.deliveries()
	if len(got) != 1 || got[0].Event != "bank.changes" || got[0].Data["month"] != "08/2026" ||
		fmtAny(got[0].Data["codes"]) != `["89306"]` ||
		!strings.Contains(got[0].Resource, "/api/public/v2/bank_changes/where_used?filter%5Bbank%5D=SINAPI") {
		t.Fatalf("the company using 89306: %+v", got)
	}
	if n := len(rcOther.deliveries()); n != 0 {
		t.Errorf("a company using none of the codes was told %d times", n)
	}

	expect(t, h.Do("POST", "/api/public/v2/budgets/"+budget+"/versions", u.Token, ""), 201)
	c := expect(t, h.Do("POST", "/api/public/v2/contracts", u.Token, `{"budget_id":"`+budget+`","version":1,"number":"CT-1/2026",
	  "contractor":"Construtora Exemplo","start_date":"2026-09-01","base_month":"2026-08","retention":5,"index":"INCC"}`), 201)
	contract := c["data"].(obj)["id"].(string)
	line := attrs(c)["lines"].([]any)[0].(obj)["id"].(string)
	expect(t, h.Do("POST", "/api/public/v2/contracts/"+contract+"/measurements", u.Token,
		`{"period_start":"2026-09-01","period_end":"2026-09-30","quantities":{"`+line+`":2}}`), 201)
	expect(t, h.Do("POST", "/api/public/v2/contracts/"+contract+"/measurements/1/submit", u.Token, ""), 200)
	expect(t, h.Do("POST", "/api/public/v2/contracts/"+contract+"/measurements/1/approve", u.Token, ""), 200)
	drain()
	var events []string
	for _, g := range rc.deliveries()[1:] {
		events = append(events, g.Event)
	}
	if strings.Join(events, " ") != "contract.created measurement.approved" {
		t.Errorf("contract events: %v", events)
	}
	for i, err := range rc.verified {
		if err != nil {
			t.Errorf("delivery %d: %v", i, err)
		}
	}
}

func fmtAny(v any) string { b, _ := json.Marshal(v); return string(b) }
