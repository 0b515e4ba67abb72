package v2_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/app"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// TestImportBudgetSheet: a tender's sheet written from the real sample
// budget (stages from the numbering, decimal commas, a totals row) imports
// to a budget of the same total with BDI as the budget it came from; a
// messy variant with an unknown code and an unreadable quantity is refused
// naming both rows, nothing written; a dry run answers the matches and
// writes nothing.
func TestImportBudgetSheet(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	want := attrs(t, expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200))["total_with_bdi"]
	sheet := "PLANILHA ORÇAMENTÁRIA - EDIFÍCIO RESIDENCIAL\n" +
		"Item;Código;Banco;Descrição;Unid.;Quant.;Preço Unit. (R$)\n" +
		"1;;;ALVENARIA;;;\n" +
		"1.1;89306;SINAPI;ALVENARIA ESTRUTURAL 14 CM;M2;120,50;141,66\n" +
		"1.2;89478;SINAPI;ALVENARIA ESTRUTURAL 14X19X29;M2;33,25;194,81\n" +
		"2;;;MATERIAIS;;;\n" +
		"2.1;34586;SINAPI;BLOCO ESTRUTURAL;UN;1.000,00;3,27\n" +
		"TOTAL GERAL;;;;;;\n"
	path := budgets + "/import?code=IMP-1&description=Edifício&location=MG&bank=SINAPI&version=08/2026&bdi=25"
	r := h.Do("POST", path, tok, sheet, "Content-Type", "text/csv")
	got := attrs(t, expect(t, r, 201))
	if num(t, got["total_with_bdi"]) != num(t, want) {
		t.Errorf("imported total %v; the budget the sheet came from %v", got["total_with_bdi"], want)
	}
	items := flatten(t, got["items"])
	if len(items) != 5 || items[0].Kind != "stage" || items[1].Code != "89306" || items[4].Kind != "resource" {
		t.Errorf("tree %+v", items)
	}
	list := func() int {
		return len(expect(t, h.Do("GET", budgets, tok, ""), 200)["data"].([]any))
	}
	before := list()
	messy := strings.Replace(strings.Replace(sheet, "1.2;89478", "1.2;99999", 1), "1.000,00", "mil", 1)
	mr := h.Do("POST", strings.Replace(path, "IMP-1", "IMP-2", 1), tok, messy, "Content-Type", "text/csv")
	errs := errorsOf(t, mr, 422)
	var ptrs []string
	for _, e := range errs {
		ptrs = append(ptrs, e.Pointer)
	}
	joined := strings.Join(ptrs, " ")
	if !strings.Contains(joined, "/rows/5") || !strings.Contains(joined, "/rows/7") || !strings.Contains(string(mr.Body), "99999") {
		t.Errorf("messy sheet errors: %s\n%s", joined, mr.Body)
	}
	if n := list(); n != before {
		t.Errorf("a refused import wrote a budget: %d → %d", before, n)
	}
	// A line of the company's own base ("Próprio" in the bank column).
	create(t, h, "/api/public/v2/my_database/resources", tok, `{"data":{"type":"resources","attributes":{"code":"AREIA-01",
	  "description":"Areia média","unit":"M3","resource_type":4,"locals":{"MG":{"pnd":101.25,"pd":100}}}}}`)
	own := sheet + "3;;;PRÓPRIOS;;;\n3.1;AREIA-01;Próprio;AREIA MÉDIA;M3;2,5;126,56\n"
	got = attrs(t, expect(t, h.Do("POST", strings.Replace(path, "IMP-1", "IMP-4", 1), tok, own, "Content-Type", "text/csv"), 201))
	items = flatten(t, got["items"])
	if last := items[len(items)-1]; last.Code != "AREIA-01" || last.Kind != "resource" {
		t.Errorf("own line: %+v", last)
	}
	before = list()
	errorsOf(t, h.Do("POST", strings.Replace(path, "IMP-1", "IMP-5", 1), tok, strings.Replace(own, "AREIA-01", "AREIA-99", 1), "Content-Type", "text/csv"), 422)
	dry := attrs(t, expect(t, h.Do("POST", strings.Replace(path, "IMP-1", "IMP-3", 1)+"&dry_run=true", tok, sheet, "Content-Type", "text/csv"), 200))
	if len(dry["lines"].([]any)) != 3 || list() != before {
		t.Errorf("dry run: %v (budgets %d → %d)", dry, before, list())
	}
	errorsOf(t, h.Do("POST", path, tok, `{"data":{}}`), 415)

	// Unmatched lines imported as own priced lines (unmatched=own): the
	// unknown code at its sheet price gives the same total; the
	// unreadable quantity is still refused; a dry run writes nothing.
	resources := func() int {
		return len(expect(t, h.Do("GET", "/api/public/v2/my_database/resources?page[size]=100", tok, ""), 200)["data"].([]any))
	}
	before, nres := list(), resources()
	own6 := strings.Replace(path, "IMP-1", "IMP-6", 1) + "&unmatched=own"
	errs = errorsOf(t, h.Do("POST", own6, tok, messy, "Content-Type", "text/csv"), 422)
	if len(errs) != 1 || errs[0].Pointer != "/rows/7" {
		t.Errorf("unmatched=own still refuses the unreadable quantity, only it: %+v", errs)
	}
	// The sheet carries 89478 at the budget's own unit price without BDI.
	var price string
	for _, row := range expect(t, h.Do("GET", budgets+"/"+f.id+"/reports/synthetic", tok, ""), 200)["data"].([]any) {
		if a := row.(map[string]any)["attributes"].(map[string]any); a["code"] == "89478" {
			price = strings.Replace(num(t, a["unit_price"]), ".", ",", 1)
		}
	}
	unknown := strings.Replace(sheet, "1.2;89478;SINAPI;ALVENARIA ESTRUTURAL 14X19X29;M2;33,25;194,81", "1.2;99999;SINAPI;ALVENARIA ESTRUTURAL 14X19X29;M2;33,25;"+price, 1)
	dry = attrs(t, expect(t, h.Do("POST", own6+"&dry_run=true", tok, unknown, "Content-Type", "text/csv"), 200))
	if l := dry["lines"].([]any)[1].(map[string]any); l["unmatched"] != true || l["code"] != "IMP-6-1.2" || !strings.Contains(l["reason"].(string), "99999") {
		t.Errorf("dry run's unmatched line: %v", l)
	}
	if list() != before || resources() != nres {
		t.Errorf("a dry run wrote: budgets %d → %d, resources %d → %d", before, list(), nres, resources())
	}
	doc := expect(t, h.Do("POST", own6, tok, unknown, "Content-Type", "text/csv"), 201)
	got = doc["data"].(map[string]any)["attributes"].(map[string]any)
	if num(t, got["total_with_bdi"]) != num(t, want) {
		t.Errorf("imported with an own priced line: total %v, want %v", got["total_with_bdi"], want)
	}
	um := doc["meta"].(map[string]any)["unmatched"].([]any)
	if len(um) != 1 || num(t, um[0].(map[string]any)["row"]) != "5" {
		t.Errorf("meta.unmatched %v", um)
	}
	res := expect(t, h.Do("GET", "/api/public/v2/my_database/resources?filter[code]=IMP-6-1.2", tok, ""), 200)["data"].([]any)
	if len(res) != 1 {
		t.Fatalf("the own resource of the unmatched line: %v", res)
	}
	ra := res[0].(map[string]any)["attributes"].(map[string]any)
	if ra["secondary_code"] != "99999" || ra["unit"] != "M2" || fmt.Sprint(ra["tags"]) != "[unmatched]" || fmt.Sprint(ra["resource_type"]) != "5" ||
		num(t, ra["locals"].(map[string]any)["MG"].(map[string]any)["pnd"]) != strings.Replace(price, ",", ".", 1) {
		t.Errorf("the own resource of the unmatched line: %v", ra)
	}
	// Without a unit price, or with prices with BDI only, a line cannot be
	// an own priced line: refused, naming the row.
	noPrice := strings.Replace(unknown, "M2;33,25;"+price, "M2;33,25;", 1)
	r = h.Do("POST", strings.Replace(own6, "IMP-6", "IMP-7", 1), tok, noPrice, "Content-Type", "text/csv")
	if errs := errorsOf(t, r, 422); len(errs) != 1 || errs[0].Pointer != "/rows/5" || !strings.Contains(string(r.Body), "no unit price") {
		t.Errorf("a line without a price: %s", r.Body)
	}
	withBDI := strings.Replace(unknown, "Preço Unit. (R$)", "Preço Unit. com BDI", 1)
	r = h.Do("POST", strings.Replace(own6, "IMP-6", "IMP-7", 1), tok, withBDI, "Content-Type", "text/csv")
	if errs := errorsOf(t, r, 422); len(errs) != 1 || !strings.Contains(string(r.Body), "sem BDI") {
		t.Errorf("prices with BDI only: %s", r.Body)
	}
	if list() != before+1 || resources() != nres+1 {
		t.Errorf("refused imports wrote: budgets %d → %d, resources %d → %d", before, list(), nres, resources())
	}
	errorsOf(t, h.Do("POST", own6+"&unmatched=maybe", tok, unknown, "Content-Type", "text/csv"), 400)
}

// TestImportMessyTenderWorkbook: a tender's XLSX written from the real
// sample budget's synthetic report as tenders publish them (a title merged
// over the columns, stage titles merged, subtotal and total rows, numbers
// typed as text with R$ and thousands dots, prices without and with BDI,
// and a line whose code is another bank's, unknown here) imports with
// unmatched=own to the same total with BDI as the budget it came from.
func TestImportMessyTenderWorkbook(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	want := attrs(t, expect(t, h.Do("GET", budgets+"/"+f.id, tok, ""), 200))["total_with_bdi"]
	br := func(s string) string { // 1234.5 → 1.234,50
		d := decimal.RequireFromString(s).StringFixed(2)
		ip, fp, _ := strings.Cut(d, ".")
		var b strings.Builder
		for i, c := range ip {
			if i > 0 && (len(ip)-i)%3 == 0 {
				b.WriteByte('.')
			}
			b.WriteRune(c)
		}
		return b.String() + "," + fp
	}
	x := excelize.NewFile()
	s := x.GetSheetName(0)
	row := 1
	put := func(v ...any) {
		cell, _ := excelize.CoordinatesToCellName(1, row)
		if err := x.SetSheetRow(s, cell, &v); err != nil {
			t.Fatal(err)
		}
		row++
	}
	merge := func(from, to string) {
		if err := x.MergeCell(s, fmt.Sprintf("%s%d", from, row-1), fmt.Sprintf("%s%d", to, row-1)); err != nil {
			t.Fatal(err)
		}
	}
	put("PLANILHA ORÇAMENTÁRIA SINTÉTICA — EDIFÍCIO RESIDENCIAL")
	merge("A", "H")
	put("Referência: SINAPI MG 08/2026, não desonerado; BDI 25%")
	merge("A", "H")
	put()
	put("ITEM", "FONTE", "CÓDIGO", "DESCRIÇÃO DOS SERVIÇOS", "UNID.", "QUANT.", "PREÇO UNIT. COM BDI (R$)", "PREÇO UNIT. SEM BDI (R$)")
	stageTotal := ""
	for _, r := range expect(t, h.Do("GET", budgets+"/"+f.id+"/reports/synthetic", tok, ""), 200)["data"].([]any) {
		a := r.(map[string]any)["attributes"].(map[string]any)
		if a["kind"] == "stage" {
			if stageTotal != "" {
				put(nil, nil, nil, "SUBTOTAL", nil, nil, nil, stageTotal)
			}
			put(a["number"], nil, nil, a["description"])
			merge("D", "H")
			stageTotal = num(t, a["total_with_bdi"])
			continue
		}
		bank, code := "SINAPI", str(a["code"])
		if code == "34586" { // another bank's code for the same block, at the same price
			bank, code = "ORSE", "00123"
		}
		put(a["number"], bank, code, a["description"], a["unit"], br(num(t, a["quantity"])),
			"R$ "+br(num(t, a["unit_price_with_bdi"])), "R$ "+br(num(t, a["unit_price"])))
	}
	put(nil, nil, nil, "SUBTOTAL", nil, nil, nil, stageTotal)
	put("TOTAL GERAL", nil, nil, nil, nil, nil, nil, num(t, want))
	var buf bytes.Buffer
	if err := x.Write(&buf); err != nil {
		t.Fatal(err)
	}
	const xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	path := budgets + "/import?code=EDITAL-7&description=Edifício&location=MG&bank=SINAPI&version=08/2026&bdi=25"
	r := h.Do("POST", path, tok, buf.String(), "Content-Type", xlsx)
	if errs := errorsOf(t, r, 422); len(errs) != 1 || errs[0].Pointer != "/rows/10" || !strings.Contains(string(r.Body), "ORSE") {
		t.Errorf("the unknown code, refused by default: %s", r.Body)
	}
	doc := expect(t, h.Do("POST", path+"&unmatched=own", tok, buf.String(), "Content-Type", xlsx), 201)
	got := doc["data"].(map[string]any)["attributes"].(map[string]any)
	if num(t, got["total_with_bdi"]) != num(t, want) || num(t, got["lines"]) != "3" {
		t.Errorf("imported total with BDI %v (%v lines), the budget it came from %v", got["total_with_bdi"], got["lines"], want)
	}
	if um := doc["meta"].(map[string]any)["unmatched"].([]any); len(um) != 1 || um[0].(map[string]any)["code"] != "EDITAL-7-2.1" {
		t.Errorf("meta.unmatched %v", um)
	}
}

// TestImportSheetSeveralEditions: a sheet mixing SINAPI and SICRO lines
// imports with editions naming the second bank, each line matched in the
// edition its bank column names; without it, the SICRO line is refused.
func TestImportSheetSeveralEditions(t *testing.T) {
	f := newBudgetFixture(t)
	h, tok := f.h, f.u.Token
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eds {
		if e.Edition.Bank == "SICRO3" { // the sample's SICRO AL, held as MG too
			e.Edition.State = "MG"
			if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	sheet := "Item;Fonte;Código;Descrição;Unid.;Quant.\n1;;;OBRAS;;\n1.1;SINAPI;89306;ALVENARIA;M2;10\n1.2;SICRO3;0307731;APARELHO DE APOIO;dm³;40\n"
	path := budgets + "/import?code=MIX-1&description=Mista&location=MG&bank=SINAPI&version=08/2026"
	r := h.Do("POST", path, tok, sheet, "Content-Type", "text/csv")
	if errs := errorsOf(t, r, 422); len(errs) != 1 || errs[0].Pointer != "/rows/4" {
		t.Errorf("a SICRO line without its edition: %s", r.Body)
	}
	got := attrs(t, expect(t, h.Do("POST", path+"&editions=SICRO3:01/2024", tok, sheet, "Content-Type", "text/csv"), 201))
	items := flatten(t, got["items"])
	if len(items) != 3 || items[1].Bank != "SINAPI" || items[2].Bank != "SICRO3" || items[2].Code != "0307731" || len(got["banks"].([]any)) != 2 {
		t.Errorf("tree %+v, banks %v", items, got["banks"])
	}
	if errs := errorsOf(t, h.Do("POST", path+"&editions=SICRO3", tok, sheet, "Content-Type", "text/csv"), 400); len(errs) != 1 || errs[0].Parameter != "editions" {
		t.Errorf("a bad editions: %+v", errs)
	}
}
