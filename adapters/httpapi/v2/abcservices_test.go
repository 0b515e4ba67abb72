package v2_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// The ABC curve of services: the synthetic report's lines ranked by their
// totals with BDI, the same service in two stages one row, in every format,
// of the budget and of a frozen version.
func TestABCServicesReport(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	// 89306 again, in stage 2: one service with 1.1.
	expect(t, h.Do("POST", budgets+"/"+f.id+"/nodes", tok, `{"parent_id":"n4","kind":"composition","bank":"SINAPI","code":"89306","quantity":10}`), 201)
	expect(t, h.Do("POST", budgets+"/"+f.id+"/versions", tok, ""), 201)
	// Changed after freezing: the version's curve does not see it.
	expect(t, h.Do("POST", budgets+"/"+f.id+"/nodes", tok, `{"parent_id":"n4","kind":"composition","bank":"SINAPI","code":"89478","quantity":1}`), 201)

	for _, tc := range []struct{ base, lines89478, stem string }{
		{budgets + "/" + f.id, "34.25", "orcamento-ORC-001-"},
		{budgets + "/" + f.id + "/versions/1", "33.25", "orcamento-ORC-001-v1-"}, // a version's files carry it
	} {
		syn := expect(t, h.Do("GET", tc.base+"/reports/synthetic", tok, ""), 200)
		perCode, qty := map[string]decimal.Decimal{}, map[string]decimal.Decimal{}
		for _, a := range rowsOf(t, syn, "synthetic-rows") {
			if a["kind"] != "stage" {
				c := str(a["code"])
				perCode[c] = perCode[c].Add(d(num(t, a["total_with_bdi"])))
				qty[c] = qty[c].Add(d(num(t, a["quantity"])))
			}
		}
		withBDI := num(t, syn["meta"].(obj)["total_with_bdi"])

		doc := expect(t, h.Do("GET", tc.base+"/reports/abc-services", tok, ""), 200)
		rows := rowsOf(t, doc, "abc-service-rows")
		if len(rows) != 3 {
			t.Fatalf("%s: %d rows, want 3 services (89306 in two stages is one)", tc.base, len(rows))
		}
		sum := decimal.Zero
		for i, a := range rows {
			c := str(a["code"])
			if tot := d(num(t, a["total_with_bdi"])); !tot.Equal(perCode[c]) {
				t.Errorf("%s %s: total with BDI %s, the synthetic lines' %s", tc.base, c, tot, perCode[c])
			}
			if q := num(t, a["quantity"]); q != qty[c].String() {
				t.Errorf("%s %s: quantity %s, want %s", tc.base, c, q, qty[c])
			}
			if i > 0 && d(num(t, a["total_with_bdi"])).GreaterThan(d(num(t, rows[i-1]["total_with_bdi"]))) {
				t.Errorf("row %d ranks above a smaller one", i)
			}
			sum = sum.Add(d(num(t, a["total_with_bdi"])))
		}
		if qty["89478"].String() != tc.lines89478 {
			t.Errorf("%s: 89478's quantity %s, want %s", tc.base, qty["89478"], tc.lines89478)
		}
		meta := doc["meta"].(obj)
		if sum.StringFixed(2) != withBDI || num(t, meta["total"]) != withBDI || meta["ranked"] != "services" {
			t.Errorf("%s: rows add up to %s, meta %v; the synthetic total with BDI is %s", tc.base, sum, meta, withBDI)
		}
		if a := rows[0]; a["code"] != "89306" || a["class"] != "A" || a["kind"] != "composition" || a["base_version"] != "08/2026" || a["unit_price_with_bdi"] == nil {
			t.Errorf("first row %v", a)
		}
		// Sparse fieldsets know the type.
		sparse := rowsOf(t, expect(t, h.Do("GET", tc.base+"/reports/abc-services?fields[abc-service-rows]=code,class", tok, ""), 200), "abc-service-rows")
		if len(sparse[0]) != 2 {
			t.Errorf("sparse row %v", sparse[0])
		}

		recs := csvOf(t, h.Do("GET", tc.base+"/reports/abc-services?format=csv", tok, ""), tc.stem+"curva-abc-servicos.csv")
		if len(recs) != 1+3+1 || recs[0][9] != "Total c/ BDI" || !strings.Contains(recs[1][3], "89306") || recs[1][9] != money(perCode["89306"]) {
			t.Errorf("%s CSV %q", tc.base, recs)
		}

		// The chart, as the resources' one, is the live budget's only.
		r := h.Do("GET", budgets+"/"+f.id+"/reports/abc-services.svg", tok, "")
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" || !bytes.Contains(r.Body, []byte("Curva ABC de serviços")) ||
			r.Header.Get("Content-Disposition") != "inline; filename=orcamento-ORC-001-curva-abc-servicos.svg" {
			t.Errorf("%s SVG: %d %v", tc.base, r.Status, r.Header)
		}

		const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
		r = h.Do("GET", tc.base+"/reports/abc-services.xlsx", tok, "", "Accept", xlsx)
		if r.Status != 200 || r.Header.Get("Content-Type") != xlsx {
			t.Fatalf("xlsx: %d %s", r.Status, r.Body)
		}
		x, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		sheet, err := x.GetRows("Curva ABC serviços")
		if err != nil || len(sheet) < 10 || sheet[8][9] != "Total c/ BDI" {
			t.Errorf("xlsx sheet: %v %q", err, sheet)
		}
		x.Close()

		r = h.Do("GET", tc.base+"/reports/abc-services.pdf", tok, "", "Accept", "application/pdf")
		if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" {
			t.Fatalf("pdf: %d %s", r.Status, r.Body)
		}
		text := strings.Join(pdfPages(t, r.Body), "\n")
		if !strings.Contains(text, "Curva ABC de serviços") || !strings.Contains(text, brlText(withBDI)) {
			t.Errorf("%s PDF lacks the title or the total %s:\n%s", tc.base, brlText(withBDI), text)
		}
	}

	path := budgets + "/" + f.id + "/reports/abc-services"
	for _, p := range []string{path + "?abcLimits=80,50", path + ".svg?abcLimits=0,10", path + ".xlsx?abcLimits=a"} {
		errs := errorsOf(t, h.Do("GET", p, tok, ""), 400)
		if errs[0].Parameter != "abcLimits" {
			t.Errorf("GET %s: %v", p, errs)
		}
	}
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
	errorsOf(t, h.Do("GET", path+".pdf", f.other.Token, "", "Accept", "application/pdf"), 404)
	errorsOf(t, h.Do("GET", budgets+"/"+f.id+"/versions/9/reports/abc-services", tok, ""), 404)
	errorsOf(t, h.Do("GET", path, "", ""), 401)
}
