package costdbclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/adapters/httpapi/openapi/clients/go/costdbclient"
	"github.com/costdb/costdb/cmd/enginetest"
)

func TestMain(m *testing.M) { enginetest.Main(m) }

// TestGeneratedClientKeepsCentavos drives a real server with the generated
// client: log in, create a resource priced 653,413.78, a composition with a
// line of 1,000,000.01 units of it, read the composition back, and read the
// synthetic report of a budget holding it. Every number the client decoded
// must be the server's JSON digit for digit.
func TestGeneratedClientKeepsCentavos(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	ctx := context.Background()

	c, err := costdbclient.NewClientWithResponses(h.URL)
	if err != nil {
		t.Fatal(err)
	}
	login, err := c.V1LoginWithResponse(ctx, costdbclient.V1LoginJSONRequestBody{Email: u.Email, SecretToken: u.Secret})
	if err != nil || login.JSON200 == nil {
		t.Fatalf("login: %v, %d %s", err, login.StatusCode(), login.Body)
	}
	bearer := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+login.JSON200.AuthToken)
		return nil
	}
	body := func(s string) *strings.Reader { return strings.NewReader(s) }

	res, err := c.V1CreateResourceWithBodyWithResponse(ctx, "application/json",
		body(`{"code":"R-1","description":"Insumo caro","type":4,"unit":"UN","local":"MG","pnd":653413.78,"pd":653413.78,"pndi":653413.78,"pdi":653413.78,"status":true,"note":""}`), bearer)
	if err != nil || res.JSON201 == nil {
		t.Fatalf("create resource: %v, %d %s", err, res.StatusCode(), res.Body)
	}
	sameNumbers(t, "created resource", res.Body, res.JSON201)
	wantText(t, res.Body, res.JSON201, "653413.78")

	comp, err := c.V1CreateCompositionWithBodyWithResponse(ctx, "application/json",
		body(`{"code":"C-1","description":"Composição grande","type":"PARE","unit":"M2","local":"MG","is_sicro":false}`), bearer)
	if err != nil || comp.JSON201 == nil {
		t.Fatalf("create composition: %v, %d %s", err, comp.StatusCode(), comp.Body)
	}
	id := comp.JSON201.Id
	added, err := c.V1AddItemsWithBodyWithResponse(ctx, id, "application/json",
		body(`{"items":[{"bank":"MYBASE","code":"R-1","qty":1000000.01}]}`), bearer)
	if err != nil || added.JSON200 == nil {
		t.Fatalf("add items: %v, %d %s", err, added.StatusCode(), added.Body)
	}
	sameNumbers(t, "add items", added.Body, added.JSON200)

	got, err := c.V1GetCompositionWithResponse(ctx, id, bearer)
	if err != nil || got.JSON200 == nil {
		t.Fatalf("get composition: %v, %d %s", err, got.StatusCode(), got.Body)
	}
	sameNumbers(t, "composition", got.Body, got.JSON200)
	// 653,413.78 × 1,000,000.01 = 653,413,786,534.1378, cut to centavos.
	wantText(t, got.Body, got.JSON200, "1000000.01", "653413.78", "653413786534.13")

	// v1 has no budget authoring: the budget is made through v2.
	b := h.Do("POST", "/api/public/v2/budgets", login.JSON200.AuthToken, `{"code":"ORC-1","description":"Obra","client":"Cliente","location":"MG","bdi":25,
	  "items":[{"kind":"composition","bank":"MYBASE","code":"C-1","quantity":1}]}`)
	if b.Status != 201 {
		t.Fatalf("create budget: %d %s", b.Status, b.Body)
	}
	var created struct {
		Data struct{ ID string } `json:"data"`
	}
	if err := json.Unmarshal(b.Body, &created); err != nil {
		t.Fatal(err)
	}
	rep, err := c.V1SyntheticReportWithResponse(ctx, created.Data.ID, nil, bearer)
	if err != nil || rep.JSON200 == nil {
		t.Fatalf("synthetic report: %v, %d %s", err, rep.StatusCode(), rep.Body)
	}
	sameNumbers(t, "synthetic report", rep.Body, rep.JSON200)
	wantText(t, rep.Body, rep.JSON200, "653413786534.13")
}

// sameNumbers compares every number (and numeric text) of the server's
// JSON with the same member of the client's decoded value, written back:
// a member the client typed as float would come back rounded.
func sameNumbers(t *testing.T, what string, raw []byte, decoded any) {
	t.Helper()
	back, err := json.Marshal(decoded)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want, gotv := tree(t, raw), tree(t, back)
	n := 0
	var walk func(w, g any, at string)
	walk = func(w, g any, at string) {
		switch w := w.(type) {
		case map[string]any:
			gm, ok := g.(map[string]any)
			if !ok {
				return
			}
			for k, wv := range w {
				if gv, ok := gm[k]; ok {
					walk(wv, gv, at+"/"+k)
				}
			}
		case []any:
			ga, ok := g.([]any)
			if !ok {
				return
			}
			for i := range min(len(w), len(ga)) {
				walk(w[i], ga[i], fmt.Sprintf("%s/%d", at, i))
			}
		case json.Number:
			n++
			if fmt.Sprint(g) != w.String() {
				t.Errorf("%s: %s is %s in the server's JSON, %v in the client's", what, at, w, g)
			}
		case string:
			// Money as text (v1 budgets: "17619.56").
			if decimalText.MatchString(w) {
				n++
				if g != w {
					t.Errorf("%s: %s is %q in the server's JSON, %v in the client's", what, at, w, g)
				}
			}
		}
	}
	walk(want, gotv, "")
	if n == 0 {
		t.Errorf("%s: no number compared", what)
	}
}

// wantText checks that each figure is in the server's answer and in the
// client's decoded value written back.
func wantText(t *testing.T, raw []byte, decoded any, figures ...string) {
	t.Helper()
	back, err := json.Marshal(decoded)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figures {
		for name, b := range map[string][]byte{"server": raw, "client": back} {
			if !bytes.Contains(b, []byte(f)) {
				t.Errorf("%s JSON lacks %s:\n%s", name, f, b)
			}
		}
	}
}

var decimalText = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)

func tree(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return v
}
