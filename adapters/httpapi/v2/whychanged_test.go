package v2_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/shopspring/decimal"
)

// importNextMonth imports SINAPI MG 09/2026 made from the real 08/2026
// sample with change applied to its records.
func importNextMonth(t *testing.T, h *apitest.Harness, change func(*app.EditionData)) {
	t.Helper()
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := eds[0]
	e.Edition.Month = "09/2026"
	data := app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	change(&data)
	if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{data}); err != nil {
		t.Fatal(err)
	}
}

// causesOf checks a causes document: the causes add up exactly to the
// difference of the totals with BDI, which is after − before; it returns
// the non-zero causes by "kind" or "kind:class".
func causesOf(t *testing.T, a obj) map[string]decimal.Decimal {
	t.Helper()
	before, after, diff := d(num(t, a["total_before"])), d(num(t, a["total_after"])), d(num(t, a["difference"]))
	if !after.Sub(before).Equal(diff) {
		t.Errorf("difference %s; after − before = %s", diff, after.Sub(before))
	}
	sum := decimal.Zero
	out := map[string]decimal.Decimal{}
	for _, c := range a["causes"].([]any) {
		c := c.(obj)
		amount := d(num(t, c["amount"]))
		sum = sum.Add(amount)
		key := str(c["kind"])
		if c["class"] != nil {
			key += ":" + str(c["class"])
		}
		if !amount.IsZero() {
			out[key] = amount
		}
	}
	if !sum.Equal(diff) {
		t.Errorf("causes add up to %s; the difference is %s: %v", sum, diff, a["causes"])
	}
	return out
}

// onlyCauses checks that the non-zero causes are want's kinds: each step
// is valued by the budget's rule, so on a budget with its BDI on the unit
// price nothing is left for the rounding.
func onlyCauses(t *testing.T, what string, got map[string]decimal.Decimal, want ...string) {
	t.Helper()
	for k, v := range got {
		found := false
		for _, w := range want {
			found = found || w == k
		}
		if !found {
			t.Errorf("%s: cause %s = %s, want only %v", what, k, v, want)
		}
	}
	for _, w := range want {
		if got[w].IsZero() {
			t.Errorf("%s: cause %s is zero (%v)", what, w, got)
		}
	}
}

// TestWhyItChanged: between frozen versions of the real SINAPI sample
// budget, a BDI change, a quantity change and a regime change each give
// their own cause alone; re-pricing against a next month where one
// resource's price changed gives that resource class's cause alone, and
// one where a composition's cost changed too gives its causes; in every
// case the causes add up to the difference to the centavo (JSON and CSV).
func TestWhyItChanged(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	bpath := budgets + "/" + f.id
	freeze := func() { t.Helper(); expect(t, h.Do("POST", bpath+"/versions", tok, ""), 201) }
	causes := func(a, b int) map[string]decimal.Decimal {
		t.Helper()
		return causesOf(t, attrs(t, expect(t, h.Do("GET", fmt.Sprintf("%s/versions/%d/causes/%d", bpath, a, b), tok, ""), 200)))
	}
	freeze()
	expect(t, h.Do("PATCH", bpath, tok, `{"bdi":28.35}`), 200)
	freeze()
	onlyCauses(t, "BDI 25 → 28.35", causes(1, 2), "bdi")
	var line string
	for _, n := range flatten(t, attrs(t, expect(t, h.Do("GET", bpath, tok, ""), 200))["items"]) {
		if n.Code == "89306" {
			line = n.ID
		}
	}
	expect(t, h.Do("PATCH", bpath+"/nodes/"+line, tok, `{"quantity":133.333}`), 200)
	freeze()
	onlyCauses(t, "quantity 120.5 → 133.333", causes(2, 3), "quantity")
	expect(t, h.Do("PATCH", bpath, tok, `{"desonerado":true}`), 200)
	freeze()
	onlyCauses(t, "não desonerado → desonerado", causes(3, 4), "regime")
	all := causes(1, 4)
	onlyCauses(t, "versions 1 → 4", all, "bdi", "quantity", "regime")
	expect(t, h.Do("GET", bpath+"/versions/1/causes/4", f.other.Token, ""), 404)
	expect(t, h.Do("GET", bpath+"/versions/1/causes/9", tok, ""), 404)

	// Next month: 34586's price up 10%.
	importNextMonth(t, h, func(e *app.EditionData) {
		for _, r := range e.Resources {
			if r.Code == "34586" {
				r.Prices.PND, r.Prices.PD = r.Prices.PND.Mul(d("1.1")).Round(2), r.Prices.PD.Mul(d("1.1")).Round(2)
			}
		}
	})
	body := `{"banks":[{"name":"SINAPI","location":"MG","version":"09/2026"}]}`
	rc := causesOf(t, attrs(t, expect(t, h.Do("POST", bpath+"/reprice/causes", tok, body), 200)))
	if len(rc) == 0 {
		t.Fatal("re-pricing to 09/2026 changed nothing")
	}
	for k := range rc {
		if !strings.HasPrefix(k, "resource_price:") {
			t.Errorf("one resource's price: cause %s = %s", k, rc[k])
		}
	}
	r := h.Do("POST", bpath+"/reprice/causes?format=csv", tok, body)
	recs, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	if r.Status != 200 || err != nil || recs[len(recs)-1][0] != "total" {
		t.Fatalf("CSV %d %v %q", r.Status, err, recs)
	}
	sum := decimal.Zero
	for _, rec := range recs[1 : len(recs)-1] {
		sum = sum.Add(d(rec[3]))
	}
	if !sum.Equal(d(recs[len(recs)-1][3])) {
		t.Errorf("CSV causes add up to %s, total %s", sum, recs[len(recs)-1][3])
	}

	// A month where composition 89306 has one coefficient of its structure
	// up 10% and its cost up R$ 1,00: its change is split into the
	// coefficients and what its structure does not explain.
	importNextMonth(t, h, func(e *app.EditionData) {
		e.Edition.Month = "10/2026"
		for _, c := range e.Compositions {
			if c.Code == "89306" && len(c.Items) > 0 {
				c.Items[0].Coefficient = c.Items[0].Coefficient.Mul(d("1.1"))
				c.Cost.PND, c.Cost.PD = c.Cost.PND.Add(d("1")), c.Cost.PD.Add(d("1"))
			}
		}
	})
	body = `{"banks":[{"name":"SINAPI","location":"MG","version":"10/2026"}]}`
	cc := causesOf(t, attrs(t, expect(t, h.Do("POST", bpath+"/reprice/causes", tok, body), 200)))
	if cc["coefficients"].IsZero() {
		t.Errorf("a coefficient changed: causes %v", cc)
	}
	for k := range cc {
		if k != "coefficients" && k != "composition_price" {
			t.Errorf("89306's structure and cost: cause %s = %s", k, cc[k])
		}
	}
}
