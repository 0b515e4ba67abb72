package v2_test

import (
	"strings"
	"testing"
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
}
