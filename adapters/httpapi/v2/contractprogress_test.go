package v2_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/shopspring/decimal"
)

// TestContractProgress: a contract's version gets its own schedule; two
// approved measurements (one ending in the first month, one in the third)
// and a draft set against it: planned per period is the version's
// schedule table, measured the approved boletins' period totals, counted in
// the period their period_end falls in, both accumulated and in percent of
// the planned total, computed here independently. A budget schedule is
// copied into a version frozen after it, and stays with the version when
// the budget's goes stale.
func TestContractProgress(t *testing.T) {
	h := apitest.New(t)
	u, other := h.AddUser("Construtora Alfa", "ana@alfa.com.br"), h.AddUser("Construtora Beta", "bia@beta.com.br")
	tok := u.Token
	cid, lines := contractFixture(t, h, tok)
	cpath := contractsPath + "/" + cid
	bid := str(attrs(t, expect(t, h.Do("GET", cpath, tok, ""), 200))["budget_id"])
	vpath := budgets + "/" + bid + "/versions/1/schedule"
	ids := map[string]string{}
	for _, l := range lines {
		ids[str(l["number"])] = str(l["id"])
	}

	// No schedule on the version yet: 404 naming where to write one.
	if r := h.Do("GET", cpath+"/progress", tok, ""); r.Status != 404 || !strings.Contains(string(r.Body), "versions/1/schedule") {
		t.Fatalf("progress without a schedule: %d %s", r.Status, r.Body)
	}
	sch := fmt.Sprintf(`{"data":{"type":"schedules","id":"%s:1","attributes":{"start":"09/2026","periods":3,"rows":[
	  {"node_id":%q,"shares":[50,30,20]},{"node_id":%q,"shares":[0,50,50]},{"node_id":%q,"shares":[20,30,50]}]}}}`,
		bid, ids["1.1"], ids["1.2"], ids["2.1"])
	expect(t, h.Do("PUT", vpath, other.Token, sch), 404)
	if a := attrs(t, expect(t, h.Do("PUT", vpath, tok, sch), 200)); a["stale"] != false {
		t.Errorf("version schedule: %v", a)
	}
	if d := data(t, expect(t, h.Do("GET", vpath, tok, ""), 200)); str(d["id"]) != bid+":1" {
		t.Errorf("version schedule id %v", d["id"])
	}
	expect(t, h.Do("GET", budgets+"/"+bid+"/schedule", tok, ""), 404) // the budget's own is another one
	table := expect(t, h.Do("GET", vpath+"/table", tok, ""), 200)
	var planned []decimal.Decimal
	for _, p := range table["meta"].(obj)["periods"].([]any) {
		planned = append(planned, cd(num(t, p.(obj)["total"])))
	}
	total := cd(num(t, table["meta"].(obj)["total"]))

	measure := func(n int, end string, q map[string]string, approve bool) decimal.Decimal {
		var parts []string
		for ln, x := range q {
			parts = append(parts, fmt.Sprintf("%q:%s", ids[ln], x))
		}
		expect(t, h.Do("POST", cpath+"/measurements", tok, fmt.Sprintf(`{"period_start":"2026-09-01","period_end":%q,"quantities":{%s}}`, end, strings.Join(parts, ","))), 201)
		if !approve {
			return decimal.Zero
		}
		mp := fmt.Sprintf("%s/measurements/%d", cpath, n)
		expect(t, h.Do("POST", mp+"/submit", tok, ""), 200)
		expect(t, h.Do("POST", mp+"/approve", tok, ""), 200)
		return cd(num(t, attrs(t, expect(t, h.Do("GET", mp+"/boletim", tok, ""), 200))["period_total"]))
	}
	m1 := measure(1, "2026-09-30", map[string]string{"1.1": "40"}, true)
	m2 := measure(2, "2026-11-05", map[string]string{"1.2": "2", "2.1": "3"}, true)
	measure(3, "2026-11-30", map[string]string{"1.1": "10"}, false) // a draft counts nowhere
	measured := []decimal.Decimal{m1, decimal.Zero, m2}
	counted := [][]int{{1}, {}, {2}}

	expect(t, h.Do("GET", cpath+"/progress", other.Token, ""), 404)
	pg := attrs(t, expect(t, h.Do("GET", cpath+"/progress", tok, ""), 200))
	pct := func(x decimal.Decimal) decimal.Decimal { return x.Shift(2).DivRound(total, 2) }
	var pAcc, mAcc decimal.Decimal
	periods := pg["periods"].([]any)
	if len(periods) != 3 {
		t.Fatalf("periods %v", periods)
	}
	for k, p := range periods {
		p := p.(obj)
		pAcc, mAcc = pAcc.Add(planned[k]), mAcc.Add(measured[k])
		for name, want := range map[string]decimal.Decimal{"planned": planned[k], "measured": measured[k], "planned_accumulated": pAcc,
			"measured_accumulated": mAcc, "planned_percent": pct(pAcc), "measured_percent": pct(mAcc), "deviation": mAcc.Sub(pAcc)} {
			if got := cd(num(t, p[name])); !got.Equal(want) {
				t.Errorf("period %d %s = %s; want %s", k, name, got, want)
			}
		}
		if got := fmt.Sprint(p["measurements"]); got != strings.ReplaceAll(fmt.Sprint(counted[k]), " ", " ") {
			t.Errorf("period %d measurements %s; want %v", k, got, counted[k])
		}
	}
	if p := periods[2].(obj); !cd(num(t, p["planned_percent"])).Equal(decimal.NewFromInt(100)) || str(p["label"]) != "11/2026" {
		t.Errorf("last period %v", p)
	}
	for name, want := range map[string]decimal.Decimal{"planned": total, "measured": m1.Add(m2)} {
		if got := cd(num(t, pg[name])); !got.Equal(want) {
			t.Errorf("%s = %s; want %s", name, got, want)
		}
	}

	r := h.Do("GET", cpath+"/progress?format=csv", tok, "")
	recs, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
	if r.Status != 200 || err != nil || len(recs) != 5 || recs[4][0] != "total" || recs[1][0] != "09/2026" || !cd(recs[1][2]).Equal(m1) || recs[3][8] != "2" {
		t.Errorf("CSV %d %v: %q", r.Status, err, recs)
	}
	svg := h.Do("GET", cpath+"/progress.svg", tok, "", "Accept", "image/svg+xml")
	body := string(svg.Body)
	if svg.Status != 200 || strings.Count(body, `class="planned"`) != 3 || strings.Count(body, `class="measured"`) != 3 ||
		!strings.Contains(body, `class="planned-curve"`) || !strings.Contains(body, `class="measured-curve"`) {
		t.Errorf("SVG %d:\n%.400s", svg.Status, body)
	}
	if r := h.Do("GET", budgets+"/"+bid+"/versions/1/schedule/s-curve.svg", tok, "", "Accept", "image/svg+xml"); r.Status != 200 || !strings.Contains(string(r.Body), "s-curve") {
		t.Errorf("version S curve: %d", r.Status)
	}

	// A budget schedule is copied into the version frozen after it; the
	// budget's going stale leaves the version's as it is.
	bsch := strings.Replace(sch, bid+":1", bid, 1)
	expect(t, h.Do("PUT", budgets+"/"+bid+"/schedule", tok, bsch), 200)
	expect(t, h.Do("POST", budgets+"/"+bid+"/versions", tok, ""), 201)
	v2 := budgets + "/" + bid + "/versions/2/schedule"
	if a := attrs(t, expect(t, h.Do("GET", v2, tok, ""), 200)); len(a["rows"].([]any)) != 3 || a["stale"] != false {
		t.Errorf("frozen copy: %v", a)
	}
	expect(t, h.Do("POST", budgets+"/"+bid+"/nodes", tok, `{"kind":"resource","bank":"SINAPI","code":"34586","quantity":1}`), 201)
	errorsOf(t, h.Do("GET", budgets+"/"+bid+"/schedule/table", tok, ""), 409)
	expect(t, h.Do("GET", v2+"/table", tok, ""), 200)
	// Frozen while stale: the version gets none.
	expect(t, h.Do("POST", budgets+"/"+bid+"/versions", tok, ""), 201)
	expect(t, h.Do("GET", budgets+"/"+bid+"/versions/3/schedule", tok, ""), 404)
	// A version's schedule is checked against the version's tree.
	bad := strings.Replace(strings.Replace(sch, bid+":1", bid+":2", 1), ids["2.1"], "nope", 1)
	errorsOf(t, h.Do("PUT", v2, tok, bad), 422)
	if r := h.Do("DELETE", v2, tok, ""); r.Status != 204 {
		t.Errorf("DELETE version schedule: %d", r.Status)
	}
	expect(t, h.Do("GET", v2, tok, ""), 404)
	expect(t, h.Do("GET", budgets+"/"+bid+"/versions/9/schedule", tok, ""), 404)
	// Deleting the budget deletes every schedule with it (the budget's and
	// version 1's here).
	keys := []string{"company/" + u.CompanyID + "/schedule/" + bid, "company/" + u.CompanyID + "/schedule/" + bid + "/v1"}
	setting := func(k string) []byte {
		var raw []byte
		if err := h.Store.View(context.Background(), func(tx app.Tx) (err error) { raw, err = tx.Setting(k); return err }); err != nil {
			t.Fatal(err)
		}
		return raw
	}
	for _, k := range keys {
		if len(setting(k)) == 0 {
			t.Fatalf("no setting %s before the delete", k)
		}
	}
	if r := h.Do("DELETE", budgets+"/"+bid, tok, ""); r.Status != 204 {
		t.Errorf("DELETE budget: %d %s", r.Status, r.Body)
	}
	for _, k := range keys {
		if raw := setting(k); len(raw) != 0 {
			t.Errorf("setting %s left after the budget's delete: %s", k, raw)
		}
	}
}
