package v2_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// TestConformity: a proposal (the real sample budget at another BDI)
// against its reference (the same budget at 25%): per line the unit price
// with BDI against the reference's, above it or not, the overprice; the
// global percent and art. 59's flags computed here exactly from the two
// totals; the sample covers 80% of the value; CSV; bad parameters at once.
func TestConformity(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	body := strings.Replace(strings.Replace(sampleBudgetBody, `"ORC-001"`, `"PROP-001"`, 1), `"bdi":25`, `"bdi":31.5`, 1)
	pid := str(data(t, create(t, h, budgets, tok, body))["id"])
	path := budgets + "/" + pid + "/conformity?reference=" + f.id
	check := func(what string) obj {
		t.Helper()
		a := attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
		total, reference := d(num(t, a["total"])), d(num(t, a["reference_total"]))
		unfeasible := total.Shift(2).LessThan(reference.Mul(d("75")))
		guarantee := total.Shift(2).LessThan(reference.Mul(d("85")))
		if a["unfeasible"] != unfeasible || a["guarantee_required"] != guarantee {
			t.Errorf("%s: %s of %s: unfeasible %v guarantee %v; want %v %v", what, total, reference, a["unfeasible"], a["guarantee_required"], unfeasible, guarantee)
		}
		if guarantee && !d(num(t, a["guarantee"])).Equal(reference.Sub(total)) {
			t.Errorf("%s: guarantee %v; want %s", what, a["guarantee"], reference.Sub(total))
		}
		if pct := total.Shift(2).DivRound(reference, 2); !d(num(t, a["percent"])).Equal(pct) {
			t.Errorf("%s: percent %v; want %s", what, a["percent"], pct)
		}
		above, over, sampled := 0, decimal.Zero, decimal.Zero
		for _, l := range a["lines"].([]any) {
			l := l.(obj)
			diff := d(num(t, l["unit_price_with_bdi"])).Sub(d(num(t, l["reference_price"])))
			if !d(num(t, l["difference"])).Equal(diff) || (l["above"] == true) != diff.IsPositive() {
				t.Errorf("%s: line %v: difference %v above %v; want %s", what, l["number"], l["difference"], l["above"], diff)
			}
			if diff.IsPositive() {
				above++
				o := d(num(t, l["total_with_bdi"])).Sub(d(num(t, l["reference_total"])))
				if !d(num(t, l["overprice"])).Equal(o) {
					t.Errorf("%s: line %v overprice %v; want %s", what, l["number"], l["overprice"], o)
				}
				over = over.Add(o)
			}
			if l["sample"] == true {
				sampled = sampled.Add(d(num(t, l["total_with_bdi"])))
			}
		}
		if num(t, a["above"]) != strings.TrimSpace(decimal.NewFromInt(int64(above)).String()) || !d(num(t, a["overprice"])).Equal(over) {
			t.Errorf("%s: above %v overprice %v; want %d %s", what, a["above"], a["overprice"], above, over)
		}
		if sampled.Shift(2).LessThan(total.Mul(d("80"))) {
			t.Errorf("%s: the sample holds %s of %s, under 80%%", what, sampled, total)
		}
		return a
	}
	a := check("BDI 31.5% against 25%")
	if num(t, a["above"]) != "3" || a["guarantee_required"] != false {
		t.Errorf("every line is above: %v", a)
	}
	// BDI 0: 80% of the reference: the guarantee, not unfeasible.
	expect(t, h.Do("PATCH", budgets+"/"+pid, tok, `{"bdi":0}`), 200)
	a = check("BDI 0% against 25%")
	if a["guarantee_required"] != true || a["unfeasible"] != false || num(t, a["above"]) != "0" {
		t.Errorf("at 80%%: %v", a)
	}
	// The thresholds are parameters.
	a = attrs(t, expect(t, h.Do("GET", path+"&unfeasible=81&guarantee=90", tok, ""), 200))
	if a["unfeasible"] != true {
		t.Errorf("below 81%%: %v", a["unfeasible"])
	}
	r := h.Do("GET", path+"&format=csv", tok, "")
	recs, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	if r.Status != 200 || err != nil || recs[len(recs)-1][0] != "garantia_adicional" || recs[len(recs)-1][10] != "sim" {
		t.Errorf("CSV %d %v %q", r.Status, err, recs)
	}
	// The documents: the workbook caches the report's figures.
	xr := h.Do("GET", budgets+"/"+pid+"/conformity.xlsx?reference="+f.id, tok, "", "Accept", xlsxMedia)
	dump("conformity.xlsx", xr.Body)
	x, err := excelize.OpenReader(bytes.NewReader(xr.Body))
	if xr.Status != 200 || err != nil {
		t.Fatalf("XLSX %d %v", xr.Status, err)
	}
	rows, _ := x.GetRows("Conformidade")
	found := 0
	for i, row := range rows {
		if len(row) > 3 && strings.HasPrefix(row[3], "Total da proposta") {
			v, _ := x.GetCellValue("Conformidade", fmt.Sprintf("K%d", i+1), excelize.Options{RawCellValue: true})
			if !d(v).Equal(d(num(t, a["total"]))) {
				t.Errorf("XLSX total %s; the report's %v", v, a["total"])
			}
			found++
		}
	}
	if found != 1 {
		t.Errorf("XLSX without its total: %v", rows)
	}
	pr := h.Do("GET", budgets+"/"+pid+"/conformity.pdf?reference="+f.id, tok, "", "Accept", "application/pdf")
	dump("conformity.pdf", pr.Body)
	if text := strings.Join(pdfPages(t, pr.Body), "\n"); pr.Status != 200 || !strings.Contains(text, "Conformidade com a referência") ||
		!strings.Contains(text, brlText(num(t, a["total"]))) || !strings.Contains(text, "§ 5º") {
		t.Errorf("PDF %d:\n%.800s", pr.Status, text)
	}
	errs := errorsOf(t, h.Do("GET", budgets+"/"+pid+"/conformity?unfeasible=x&reference_version=0", tok, ""), 400)
	if len(errs) != 3 {
		t.Errorf("bad parameters: %v", errs)
	}
	expect(t, h.Do("GET", path, f.other.Token, ""), 404)
	expect(t, h.Do("GET", budgets+"/"+pid+"/conformity?reference=nope", tok, ""), 404)
}

// TestContractConformity: a contract of the real sample (BDI 25%, não
// desonerado) against a reference of the same lines desonerado: the
// initial discount; an amendment adding to the line whose price is
// nearest the reference's reduces the discount (Decreto 7.983 art. 14),
// decided exactly from the figures; a new line the reference lacks is
// named.
func TestContractConformity(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	tok := u.Token
	cid, lines := contractFixture(t, h, tok)
	cpath := contractsPath + "/" + cid
	refID := str(data(t, create(t, h, budgets, tok, `{"code":"REF-CT","description":"Escola","location":"MG","bdi":25,"desonerado":true,
	  "banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],
	  "items":[{"kind":"stage","description":"Alvenaria","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89306","quantity":1},
	    {"kind":"composition","bank":"SINAPI","code":"87286","quantity":1}]},
	   {"kind":"stage","description":"Vedação","items":[
	    {"kind":"composition","bank":"SINAPI","code":"89478","quantity":1}]}]}`))["id"])
	refPrice := map[string]decimal.Decimal{}
	for _, row := range expect(t, h.Do("GET", budgets+"/"+refID+"/reports/synthetic", tok, ""), 200)["data"].([]any) {
		a := row.(obj)["attributes"].(obj)
		if a["kind"] != "stage" {
			refPrice[str(a["code"])] = d(num(t, a["unit_price_with_bdi"]))
		}
	}
	path := cpath + "/conformity?reference=" + refID
	get := func() obj {
		t.Helper()
		a := attrs(t, expect(t, h.Do("GET", path, tok, ""), 200))
		reduced := d(num(t, a["current"])).Mul(d(num(t, a["reference_initial"]))).GreaterThan(d(num(t, a["initial"])).Mul(d(num(t, a["reference_current"]))))
		if a["reduced"] != reduced {
			t.Errorf("reduced %v; the figures say %v (%v)", a["reduced"], reduced, a)
		}
		return a
	}
	a := get()
	if a["reduced"] != false || len(a["unmatched"].([]any)) != 0 || d(num(t, a["initial_discount"])).Equal(d(num(t, a["current_discount"]))) == false {
		t.Errorf("before any amendment: %v", a)
	}
	// The line whose price is nearest the reference's (the smallest
	// discount) and the farthest.
	var near, far string
	var nearRatio, farRatio decimal.Decimal
	for _, l := range lines {
		ratio := d(num(t, l["unit_price_with_bdi"])).Div(refPrice[str(l["code"])])
		if near == "" || ratio.GreaterThan(nearRatio) {
			near, nearRatio = str(l["id"]), ratio
		}
		if far == "" || ratio.LessThan(farRatio) {
			far, farRatio = str(l["id"]), ratio
		}
	}
	if nearRatio.Equal(farRatio) {
		t.Fatalf("every line has the same discount: %s", nearRatio)
	}
	amend := func(n int, body string) {
		t.Helper()
		expect(t, h.Do("POST", cpath+"/amendments", tok, body), 201)
		for _, step := range []string{"submit", "approve"} {
			expect(t, h.Do("POST", cpath+"/amendments/"+strings.TrimSpace(decimal.NewFromInt(int64(n)).String())+"/"+step, tok, ""), 200)
		}
	}
	amend(1, `{"description":"Aditivo 1","changes":[{"line":"`+far+`","quantity":1}]}`)
	if a := get(); a["reduced"] != false {
		t.Errorf("adding to the line of the largest discount reduced it: %v", a)
	}
	amend(2, `{"description":"Aditivo 2","changes":[{"line":"`+near+`","quantity":20}]}`)
	if a := get(); a["reduced"] != true {
		t.Errorf("adding to the line of the smallest discount did not reduce it: %v", a)
	}
	amend(3, `{"description":"Aditivo 3","new_lines":[{"bank":"SINAPI","code":"88316","quantity":1}]}`)
	if a := get(); len(a["unmatched"].([]any)) != 1 {
		t.Errorf("a new line the reference lacks: %v", a["unmatched"])
	}
	expect(t, h.Do("GET", path, h.AddUser("Beta", "b@beta.com.br").Token, ""), 404)
}
