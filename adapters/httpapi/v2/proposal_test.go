package v2_test

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// The proposal of the sample budget (SINAPI MG 08/2026, truncated) under a
// discount, computed again here from the synthetic report's unit prices
// with BDI: TRUNC(price × (1 − d/100), 2) × quantity, truncated; then for a
// target; of the budget and of a frozen version; JSON:API and CSV.
func TestProposal(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201)
	// Changed after freezing: the version's proposal does not see it.
	expect(t, h.Do("POST", budgets+"/"+f.id+"/nodes", tok, `{"parent_id":"n4","kind":"composition","bank":"SINAPI","code":"89478","quantity":1}`), 201)

	trunc2 := func(x decimal.Decimal) decimal.Decimal { return x.Truncate(2) }
	for _, base := range []string{budgets + "/" + f.id, budgets + "/" + f.id + "/versions/1"} {
		syn := expect(t, h.Do("GET", base+"/reports/synthetic", tok, ""), 200)
		type ref struct{ unit, qty decimal.Decimal }
		refs := map[string]ref{}
		for _, a := range rowsOf(t, syn, "synthetic-rows") {
			if a["kind"] != "stage" {
				refs[str(a["number"])] = ref{d(num(t, a["unit_price_with_bdi"])), d(num(t, a["quantity"]))}
			}
		}
		refTotal := d(num(t, syn["meta"].(obj)["total_with_bdi"]))

		// A discount: every line recomputed.
		factor := decimal.RequireFromString("0.925")
		doc := expect(t, h.Do("GET", base+"/proposal?discount=7.5", tok, ""), 200)
		want := decimal.Zero
		lines := 0
		for _, row := range doc["data"].([]any) {
			o := row.(obj)
			a := o["attributes"].(obj)
			if o["type"] != "proposal-rows" {
				t.Fatalf("row type %v", o["type"])
			}
			if a["kind"] == "stage" {
				continue
			}
			lines++
			rf := refs[str(a["number"])]
			unit := trunc2(rf.unit.Mul(factor))
			if got := d(num(t, a["unit_price"])); !got.Equal(unit) || got.GreaterThan(rf.unit) {
				t.Errorf("%s line %v: unit %s, want %s (reference %s)", base, a["number"], got, unit, rf.unit)
			}
			tot := trunc2(unit.Mul(rf.qty))
			if got := d(num(t, a["total"])); !got.Equal(tot) {
				t.Errorf("%s line %v: total %s, want %s", base, a["number"], got, tot)
			}
			want = want.Add(tot)
		}
		if lines != len(refs) {
			t.Errorf("%s: %d lines, the synthetic report has %d", base, lines, len(refs))
		}
		meta := doc["meta"].(obj)
		if got := d(num(t, meta["total"])); !got.Equal(want) || !d(num(t, meta["reference_total"])).Equal(refTotal) || num(t, meta["discount"]) != "7.5" {
			t.Errorf("%s: meta %v, want total %s of %s", base, meta, want, refTotal)
		}

		// A target: 95% of the reference, in hundredths of a percent.
		target := trunc2(refTotal.Mul(decimal.RequireFromString("0.95")))
		doc = expect(t, h.Do("GET", base+"/proposal/target?target="+target.String()+"&places=2", tok, ""), 200)
		meta = doc["meta"].(obj)
		total, residual := d(num(t, meta["total"])), d(num(t, meta["residual"]))
		if total.GreaterThan(target) || !residual.Equal(target.Sub(total)) || !d(num(t, meta["target"])).Equal(target) {
			t.Errorf("%s target %s: total %s residual %s", base, target, total, residual)
		}
		// One hundredth of a percent less discount goes above the target.
		less := d(num(t, meta["discount"])).Sub(decimal.RequireFromString("0.01"))
		above := expect(t, h.Do("GET", base+"/proposal?discount="+less.String(), tok, ""), 200)
		if got := d(num(t, above["meta"].(obj)["total"])); !got.GreaterThan(target) {
			t.Errorf("%s: %s%% gives %s, not above the target %s: the discount found is not the smallest", base, less, got, target)
		}

		// CSV: the footer carries the totals.
		stem := "orcamento-ORC-001-"
		if strings.Contains(base, "versions") {
			stem = "orcamento-ORC-001-v1-"
		}
		recs := csvOf(t, h.Do("GET", base+"/proposal?discount=7.5&format=csv", tok, ""), stem+"proposta.csv")
		foot := map[string]string{}
		for _, rec := range recs {
			foot[rec[5]] = rec[11]
		}
		if foot["Total proposto com BDI"] != strings.Replace(want.StringFixed(2), ".", ",", 1) || foot["Desconto (%)"] != "7,5" {
			t.Errorf("%s CSV footer %v, want total %s", base, foot, want)
		}
	}

	path := budgets + "/" + f.id + "/proposal"
	for _, tc := range []struct{ q, params string }{
		{"", "discount"},
		{"?discount=100", "discount"},
		{"?discount=1.0000001", "discount"},
		{"?discount=abc&format=xml", "discount,format"},
		{"?discount=5&target=10", "target"},
		{"/target", "target"},
		{"/target?target=abc&places=x", "target,places"},
		{"/target?target=-5&places=9", "target,places"},
		{"/target?target=0", "target"},
	} {
		errs := errorsOf(t, h.Do("GET", path+tc.q, tok, ""), 400)
		var got []string
		for _, e := range errs {
			got = append(got, e.Parameter)
		}
		if strings.Join(got, ",") != tc.params {
			t.Errorf("GET %s: parameters %v, want %s", tc.q, got, tc.params)
		}
	}
	errorsOf(t, h.Do("GET", path+"?discount=5", f.other.Token, ""), 404)
	errorsOf(t, h.Do("GET", budgets+"/"+f.id+"/versions/9/proposal?discount=5", tok, ""), 404)
	errorsOf(t, h.Do("GET", path+"?discount=5", "", ""), 401)
}
