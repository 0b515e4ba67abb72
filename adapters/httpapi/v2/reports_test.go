package v2_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"sort"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rowsOf returns the attributes of a collection document's resources, and
// checks their type.
func rowsOf(t *testing.T, doc obj, typ string) []obj {
	t.Helper()
	var out []obj
	for _, it := range doc["data"].([]any) {
		o := it.(obj)
		if o["type"] != typ {
			t.Fatalf("resource of type %v, want %s", o["type"], typ)
		}
		out = append(out, o["attributes"].(obj))
	}
	return out
}

// csvOf checks a CSV export's headers, BOM and separator, and returns its
// records.
func csvOf(t *testing.T, r *apitest.Response, filename string) [][]string {
	t.Helper()
	if r.Status != 200 {
		t.Fatalf("status %d\n%s", r.Status, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/csv; charset=utf-8; header=present" {
		t.Errorf("Content-Type %q", ct)
	}
	if cd := r.Header.Get("Content-Disposition"); cd != "attachment; filename="+filename {
		t.Errorf("Content-Disposition %q, want attachment; filename=%s", cd, filename)
	}
	if !bytes.HasPrefix(r.Body, []byte{0xef, 0xbb, 0xbf}) {
		t.Fatalf("no UTF-8 byte order mark")
	}
	cr := csv.NewReader(bytes.NewReader(r.Body[3:]))
	cr.Comma = ';'
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatalf("not CSV separated by ';': %v", err)
	}
	return recs
}

// money is a figure as the CSV writes it: decimal comma, 2 places.
func money(v decimal.Decimal) string { return strings.Replace(v.StringFixed(2), ".", ",", 1) }

func TestSyntheticReport(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, budgets+"/"+f.id+"/reports/synthetic"

	doc := expect(t, h.Do("GET", path, tok, ""), 200)
	rows := rowsOf(t, doc, "synthetic-rows")
	l11, l12, l21 := figures("89306", "120.5"), figures("89478", "33.25"), figures("34586", "1000")
	s1t, s1b := l11.total.Add(l12.total), l11.totalBDI.Add(l12.totalBDI)
	total := s1t.Add(l21.total)
	withBDI := s1b.Add(l21.totalBDI)
	type row struct{ Number, Kind, Code, Qty, Price, PriceBDI, Total, TotalBDI string }
	line := func(number, code, qty string, f lineFigures) row {
		return row{number, kindOf(code), code, qty, f.price.StringFixed(2), f.priceBDI.StringFixed(2), f.total.StringFixed(2), f.totalBDI.StringFixed(2)}
	}
	want := []row{
		{"1", "stage", "", "", "", "", s1t.StringFixed(2), s1b.StringFixed(2)},
		line("1.1", "89306", "120.5", l11),
		line("1.2", "89478", "33.25", l12),
		{"2", "stage", "", "", "", "", l21.total.StringFixed(2), l21.totalBDI.StringFixed(2)},
		line("2.1", "34586", "1000", l21),
	}
	var got []row
	for _, a := range rows {
		r := row{Number: str(a["number"]), Kind: str(a["kind"]), Code: str(a["code"]), Total: num(t, a["total"]), TotalBDI: num(t, a["total_with_bdi"])}
		if a["kind"] != "stage" {
			r.Qty, r.Price, r.PriceBDI = num(t, a["quantity"]), num(t, a["unit_price"]), num(t, a["unit_price_with_bdi"])
		} else if a["bank"] != nil || a["quantity"] != nil || a["unit_price"] != nil {
			t.Errorf("stage row %s has line fields: %v", r.Number, a)
		}
		got = append(got, r)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if a := rows[1]; a["bank"] != "SINAPI" || a["base_version"] != "08/2026" || a["unit"] != "M2" || !strings.HasPrefix(str(a["description"]), "ALVENARIA ESTRUTURAL") ||
		a["node_id"] != "n2" || num(t, a["depth"]) != "2" || a["missing"] != false {
		t.Errorf("row 1.1: %v", a)
	}
	if id := str(doc["data"].([]any)[1].(obj)["id"]); id != f.id+":n2" {
		t.Errorf("row id %q", id)
	}
	// Weight: 13656.26 / 21458.27 = 63.64%.
	if w := num(t, rows[1]["weight"]); w != l11.total.Shift(2).DivRound(total, 2).StringFixed(2) || w != "63.64" {
		t.Errorf("weight of 1.1: %s", w)
	}
	meta := doc["meta"].(obj)
	if num(t, meta["total"]) != total.StringFixed(2) || num(t, meta["total_with_bdi"]) != withBDI.StringFixed(2) ||
		num(t, meta["bdi_value"]) != withBDI.Sub(total).StringFixed(2) || num(t, meta["rows"]) != "5" ||
		meta["budget"].(obj)["code"] != "ORC-001" {
		t.Errorf("meta %v", meta)
	}

	// CSV, by Accept and by ?format=csv (which wins over Accept).
	for _, r := range []*apitest.Response{
		h.Do("GET", path, tok, "", "Accept", "text/csv"),
		h.Do("GET", path+"?format=csv", tok, "", "Accept", jsonapiType),
	} {
		recs := csvOf(t, r, "orcamento-ORC-001-sintetico.csv")
		if len(recs) != 1+5+3 {
			t.Fatalf("%d records, want header + 5 rows + 3 footer rows", len(recs))
		}
		if recs[0][0] != "Item" || recs[0][5] != "Descrição" || recs[0][10] != "Total" {
			t.Errorf("header %q", recs[0])
		}
		if r := recs[2]; r[0] != "1.1" || r[1] != "Composição" || r[4] != "89306" || r[7] != "120,5" || r[8] != "113,33" || r[10] != money(l11.total) || r[11] != "17070,03" {
			t.Errorf("row 1.1 %q", r)
		}
		foot := recs[6:]
		if foot[0][5] != "Total sem BDI" || foot[0][10] != money(total) || foot[1][5] != "BDI (25%)" || foot[2][10] != money(withBDI) {
			t.Errorf("footer %q", foot)
		}
	}
	// ?format=json wins over Accept: text/csv.
	expect(t, h.Do("GET", path+"?format=json", tok, "", "Accept", "text/csv"), 200)

	// Errors.
	for _, tc := range []struct {
		query   string
		headers []string
		status  int
		param   string
	}{
		{"?format=xlsx", nil, 400, "format"},
		{"?abcLimits=50,80", nil, 400, "abcLimits"},
		{"", []string{"Accept", "image/svg+xml"}, 406, ""},
	} {
		errs := errorsOf(t, h.Do("GET", path+tc.query, tok, "", tc.headers...), tc.status)
		if errs[0].Parameter != tc.param {
			t.Errorf("GET %s: %v", tc.query, errs)
		}
	}
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
	errorsOf(t, h.Do("GET", path, f.other.Token, "", "Accept", "text/csv"), 404)
	errorsOf(t, h.Do("GET", path, "", ""), 401)
	errorsOf(t, h.Do("GET", budgets+"/nope/reports/synthetic", tok, ""), 404)
}

func kindOf(code string) string {
	if code == "34586" {
		return "resource"
	}
	return "composition"
}

func TestAnalyticReport(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, budgets+"/"+f.id+"/reports/analytic"

	doc := expect(t, h.Do("GET", path, tok, ""), 200)
	rows := rowsOf(t, doc, "analytic-rows")
	if len(rows) != 5 {
		t.Fatalf("%d rows", len(rows))
	}
	// 1.1 opens 89306 into its published structure, each partial cost
	// trunc₂(coefficient × unit price).
	items := rows[1]["items"].([]any)
	var got, want []string
	for i, it := range items {
		o := it.(obj)
		got = append(got, str(o["code"])+" "+num(t, o["coefficient"])+" "+num(t, o["unit_price"])+" "+num(t, o["partial"]))
		s := mgStructure["89306"][i]
		p := d(mgPrice[s[0]])
		want = append(want, s[0]+" "+s[1]+" "+p.StringFixed(2)+" "+d(s[1]).Mul(p).Truncate(2).StringFixed(2))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items of 89306 (-want +got):\n%s", diff)
	}
	if o := items[0].(obj); o["kind"] != "composition" || o["resource_type"] != nil || len(o["items"].([]any)) != 0 || o["base_version"] != "08/2026" {
		t.Errorf("88316 stays whole (no structure in the sample): %v", o)
	}
	if o := items[3].(obj); o["kind"] != "resource" || num(t, o["resource_type"]) != "4" {
		t.Errorf("34788 is a material: %v", o)
	}
	// One unit of 89306 by category, from its leaves: labour 0.6505 × 24.88
	// + 1.1152 × 33.62 (each cut), services the mortar, material the blocks.
	us := rows[1]["unit_summary"].(obj)
	labor := d("0.6505").Mul(d("24.88")).Truncate(2).Add(d("1.1152").Mul(d("33.62")).Truncate(2))
	if num(t, us["labor"]) != labor.StringFixed(2) {
		t.Errorf("unit summary of 89306: %v, labour want %s", us, labor.StringFixed(2))
	}
	if rows[0]["unit_summary"] != nil || len(rows[0]["items"].([]any)) != 0 || len(rows[4]["items"].([]any)) != 0 {
		t.Errorf("a stage has no summary and no items, a resource line no items: %v / %v", rows[0], rows[4])
	}
	meta := doc["meta"].(obj)
	summary := meta["summary"].(obj)
	if num(t, meta["total"]) != "21458.27" || summary["total"] == nil {
		t.Errorf("meta %v", meta)
	}

	recs := csvOf(t, h.Do("GET", path+"?format=csv", tok, ""), "orcamento-ORC-001-analitico.csv")
	// Header, 5 rows, 6 items under each composition line, 3 totals, 4 categories.
	if len(recs) != 1+5+12+3+4 {
		t.Fatalf("%d records", len(recs))
	}
	if r := recs[3]; r[0] != "1.1" || r[1] != "1" || r[5] != "88316" || r[8] != "0,6505" || r[11] != money(d("0.6505").Mul(d("24.88")).Truncate(2)) {
		t.Errorf("first item of 1.1: %q", r)
	}
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
}

// abcRow is an ABC row as the test computes it.
type abcRow struct {
	Code, Qty, Total, Class string
}

func TestABCReport(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, budgets+"/"+f.id+"/reports/abc"

	// The leaves, from the published structures: line quantity × coefficient,
	// summed per code, total = trunc₂(quantity × price).
	qty := map[string]decimal.Decimal{}
	for _, l := range []struct{ code, q string }{{"89306", "120.5"}, {"89478", "33.25"}} {
		for _, it := range mgStructure[l.code] {
			qty[it[0]] = qty[it[0]].Add(d(l.q).Mul(d(it[1])))
		}
	}
	qty["34586"] = qty["34586"].Add(d("1000"))
	var want []abcRow
	grand := decimal.Zero
	for code, q := range qty {
		tot := q.Mul(d(mgPrice[code])).Truncate(2)
		grand = grand.Add(tot)
		want = append(want, abcRow{Code: code, Qty: q.String(), Total: tot.StringFixed(2)})
	}
	sort.Slice(want, func(i, j int) bool {
		a, b := d(want[i].Total), d(want[j].Total)
		if !a.Equal(b) {
			return a.GreaterThan(b)
		}
		return want[i].Code < want[j].Code
	})
	classify := func(limA, limB string) []abcRow {
		out := append([]abcRow(nil), want...)
		before := decimal.Zero
		for i := range out {
			share := before.Shift(2)
			switch {
			case share.LessThan(d(limA).Mul(grand)):
				out[i].Class = "A"
			case share.LessThan(d(limB).Mul(grand)):
				out[i].Class = "B"
			default:
				out[i].Class = "C"
			}
			before = before.Add(d(out[i].Total))
		}
		return out
	}

	for _, tc := range []struct{ query, a, b string }{{"", "50", "80"}, {"?abcLimits=60,92.5", "60", "92.5"}} {
		doc := expect(t, h.Do("GET", path+tc.query, tok, ""), 200)
		rows := rowsOf(t, doc, "abc-rows")
		var got []abcRow
		sum := decimal.Zero
		for i, a := range rows {
			got = append(got, abcRow{Code: str(a["code"]), Qty: num(t, a["quantity"]), Total: num(t, a["total"]), Class: str(a["class"])})
			sum = sum.Add(d(num(t, a["percent"])))
			if num(t, a["position"]) != decimal.NewFromInt(int64(i+1)).String() {
				t.Errorf("row %d has position %v", i, a["position"])
			}
		}
		if diff := cmp.Diff(classify(tc.a, tc.b), got); diff != "" {
			t.Errorf("abc%s (-want +got):\n%s", tc.query, diff)
		}
		if !sum.Equal(d("100")) || num(t, rows[len(rows)-1]["cumulative_percent"]) != "100.00" {
			t.Errorf("percents add up to %s, last cumulative %v", sum, rows[len(rows)-1]["cumulative_percent"])
		}
		meta := doc["meta"].(obj)
		if num(t, meta["total"]) != grand.StringFixed(2) || num(t, meta["limits"].(obj)["a"]) != tc.a || num(t, meta["rows"]) != "9" {
			t.Errorf("meta %v, want total %s", meta, grand.StringFixed(2))
		}
		classes := meta["classes"].(obj)
		n := 0
		for _, c := range []string{"A", "B", "C"} {
			n += int(d(num(t, classes[c].(obj)["count"])).IntPart())
		}
		if n != 9 {
			t.Errorf("classes %v count %d rows", classes, n)
		}
	}
	first := rowsOf(t, expect(t, h.Do("GET", path, tok, ""), 200), "abc-rows")[0]
	if first["code"] != "34586" || first["kind"] != "resource" || num(t, first["resource_type"]) != "4" || first["category"] != "material" ||
		first["bank"] != "SINAPI" || first["base_version"] != "08/2026" || num(t, first["unit_price"]) != "2.62" {
		t.Errorf("first row %v", first)
	}

	// CSV: header, 9 rows, the total.
	recs := csvOf(t, h.Do("GET", path+"?abcLimits=60,92.5", tok, "", "Accept", "text/csv, application/vnd.api+json;q=0.5"), "orcamento-ORC-001-curva-abc.csv")
	if len(recs) != 1+9+1 {
		t.Fatalf("%d records", len(recs))
	}
	if r := recs[1]; r[0] != "1" || r[3] != "34586" || r[6] != "Material" || r[9] != money(d(want[0].Total)) || r[12] != "A" {
		t.Errorf("first row %q", r)
	}
	if last := recs[10]; last[4] != "Total" || last[9] != money(grand) || last[10] != "100,00" {
		t.Errorf("footer %q", last)
	}

	for _, q := range []string{"?abcLimits=80,50", "?abcLimits=50", "?abcLimits=0,80", "?abcLimits=50,101", "?abcLimits=a,b"} {
		errs := errorsOf(t, h.Do("GET", path+q, tok, ""), 400)
		if len(errs) != 1 || errs[0].Parameter != "abcLimits" {
			t.Errorf("GET %s: %v", q, errs)
		}
	}
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
}

// svgChart is what the test reads of the chart.
type svgChart struct {
	XMLName xml.Name
	Kids    []svgNode `xml:",any"`
}

type svgNode struct {
	XMLName xml.Name
	Class   string    `xml:"class,attr"`
	Kids    []svgNode `xml:",any"`
}

func countBars(ns []svgNode) (bars int, bands []string) {
	for _, n := range ns {
		switch f := strings.Fields(n.Class); {
		case len(f) > 0 && f[0] == "bar":
			bars++
		case len(f) > 0 && f[0] == "band":
			bands = append(bands, f[1])
		}
		b, bs := countBars(n.Kids)
		bars += b
		bands = append(bands, bs...)
	}
	return bars, bands
}

func TestABCChart(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok, path := f.h, f.u.Token, budgets+"/"+f.id+"/reports/abc.svg"

	for _, headers := range [][]string{nil, {"Accept", "image/svg+xml"}, {"Accept", "image/*"}, {"Accept", "text/html,application/xhtml+xml,*/*;q=0.8"}} {
		r := h.Do("GET", path, tok, "", headers...)
		if r.Status != 200 {
			t.Fatalf("Accept %v: %d\n%s", headers, r.Status, r.Body)
		}
		if ct, cd := r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"); ct != "image/svg+xml" || cd != "inline; filename=orcamento-ORC-001-curva-abc.svg" {
			t.Errorf("Content-Type %q, Content-Disposition %q", ct, cd)
		}
		var chart svgChart
		if err := xml.Unmarshal(r.Body, &chart); err != nil {
			t.Fatalf("the chart is not well-formed XML: %v", err)
		}
		if chart.XMLName.Local != "svg" || chart.XMLName.Space != "http://www.w3.org/2000/svg" {
			t.Errorf("root %v", chart.XMLName)
		}
		bars, bands := countBars(chart.Kids)
		if bars != 9 {
			t.Errorf("%d bars, want one per resource (9)", bars)
		}
		if len(bands) == 0 || bands[0] != "band-A" {
			t.Errorf("bands %v", bands)
		}
	}
	// The limits change the bands: 34586 is about 35% of the cost, so with
	// limits 30 and 40 it alone is A, 88309 (crossing 40%) alone B.
	r := h.Do("GET", path+"?abcLimits=30,40", tok, "")
	var chart svgChart
	if err := xml.Unmarshal(r.Body, &chart); err != nil {
		t.Fatal(err)
	}
	if _, bands := countBars(chart.Kids); strings.Join(bands, ",") != "band-A,band-B,band-C" {
		t.Errorf("bands %v", bands)
	}
	errorsOf(t, h.Do("GET", path, tok, "", "Accept", jsonapiType), 406)
	errs := errorsOf(t, h.Do("GET", path+"?abcLimits=90,10", tok, ""), 400)
	if errs[0].Parameter != "abcLimits" {
		t.Errorf("errors %v", errs)
	}
	errorsOf(t, h.Do("GET", path+"?format=csv", tok, ""), 400)
	errorsOf(t, h.Do("GET", path, f.other.Token, ""), 404)
	errorsOf(t, h.Do("GET", path, "", ""), 401)
}
