package bankfiles_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The real SEINFRA-CE sample (testdata/agency/README.md) and the shipped
// mappings.
const (
	seinfraSample  = "testdata/agency/seinfra-ce-027-insumos-cut.xlsx"
	seinfraMapping = "mappings/seinfra-ce.json"
	orseMapping    = "mappings/orse.json"
)

func readMapping(t *testing.T, path string) *bankfiles.Mapping {
	t.Helper()
	m, err := bankfiles.ReadMappingFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func mustDec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestMappingSeinfraRealSample reads the real SEINFRA-CE sample through the
// shipped mapping: every row, exact prices, one regime.
func TestMappingSeinfraRealSample(t *testing.T) {
	m := readMapping(t, seinfraMapping)
	eds, sum, err := bankfiles.ReadMapped(context.Background(), m, seinfraSample, "", "03/2021", bankfiles.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(eds) != 1 || sum.Rows != 16 || sum.Skipped != 0 || sum.Resources != 16 || sum.Compositions != 0 {
		t.Fatalf("%d editions, summary %+v", len(eds), sum)
	}
	ed := eds[0].Edition
	if ed.Key() != "SEINFRA/CE/2021-03/" || len(ed.Regimes) != 1 || ed.Regimes[0] != domain.NaoDesonerado {
		t.Errorf("edition %s, regimes %v", ed.Key(), ed.Regimes)
	}
	if !strings.Contains(ed.Source, "seinfra-ce-027-insumos-cut.xlsx") {
		t.Errorf("source %q does not name the file", ed.Source)
	}
	// I0564's cell holds 39.25166523; SEINFRA publishes 39,2517 (its
	// composition pages): the mapping rounds half up to 4 places.
	want := map[string]string{"I8600": "3990.84", "I8598": "3111.9", "I8650": "8270", "I1566": "0.72", "I2320": "22.72",
		"I0564": "39.2517", "I9518": "0.4631"}
	for _, r := range eds[0].Resources {
		if p, ok := want[r.Code]; ok {
			if !r.Prices.PND.Equal(mustDec(t, p)) || !r.Prices.PD.IsZero() {
				t.Errorf("%s priced %s / %s, want %s não desonerado only", r.Code, r.Prices.PND, r.Prices.PD, p)
			}
			delete(want, r.Code)
		}
	}
	if len(want) != 0 {
		t.Errorf("codes not read: %v", want)
	}
	// Without "round", those cells are refused, each named.
	m.Round = false
	_, _, err = bankfiles.ReadMapped(context.Background(), m, seinfraSample, "", "03/2021", bankfiles.Limits{})
	for _, want := range []string{"2 bad rows", `line 12: price "price" "0.4631041" has more than 4 decimal places`, `line 13: price "price" "39.25166523"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("without round: the error does not say %q: %v", want, err)
		}
	}
	m.Round = true
	// The month is the command line's; a state that contradicts the
	// mapping's is refused, naming both.
	if _, _, err := bankfiles.ReadMapped(context.Background(), m, seinfraSample, "", "", bankfiles.Limits{}); err == nil || !strings.Contains(err.Error(), "month") {
		t.Errorf("no month: err = %v", err)
	}
	if _, _, err := bankfiles.ReadMapped(context.Background(), m, seinfraSample, "SE", "03/2021", bankfiles.Limits{}); err == nil ||
		!strings.Contains(err.Error(), "--state SE contradicts the mapping's state CE") {
		t.Errorf("other state: err = %v", err)
	}
}

// TestMappingPricesComposition imports the real SEINFRA-CE sample and
// prices an own composition made as SEINFRA's C0010 (ACIONADOR MANUAL…
// instalado, UN): 0.35 H I2320 + 0.35 H I0043 + 1 UN I0005 + 2 UN I1566,
// which SEINFRA publishes at 64,85 (its composition page, see
// testdata/agency/README.md). An item whose code the edition lacks is
// missing, not free.
func TestMappingPricesComposition(t *testing.T) {
	ctx := context.Background()
	m := readMapping(t, seinfraMapping)
	m.Prices[0].Regime = "single" // a composition shows both regimes: price them alike
	eds, _, err := bankfiles.ReadMapped(ctx, m, seinfraSample, "", "03/2021", bankfiles.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, filepath.Join(t.TempDir(), "agency.db"))
	if _, err := db.svc.ImportEditions(ctx, editionData(eds)); err != nil {
		t.Fatal(err)
	}
	nu, err := db.svc.AddUser(ctx, app.NewUserInput{Company: "Construtora CE", Email: "o@ce.com"})
	if err != nil {
		t.Fatal(err)
	}
	p := domain.Principal{UserID: nu.User.ID, CompanyID: nu.Company.ID, DepartmentID: nu.Department.ID}
	own := func(code string, items [][2]string) *domain.PricedComposition {
		t.Helper()
		c, err := db.svc.CreateComposition(ctx, p, app.CompositionInput{Code: code, Description: "Acionador manual instalado", Unit: "UN", State: "CE"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.svc.AddBanks(ctx, p, c.ID, []app.BankInput{{Name: "seinfra", State: "CE", Month: "03/2021"}}); err != nil {
			t.Fatal(err)
		}
		var in []app.ItemInput
		for _, it := range items {
			in = append(in, app.ItemInput{Bank: "SEINFRA", Code: it[0], Quantity: mustDec(t, it[1])})
		}
		pc, err := db.svc.AddItems(ctx, p, c.ID, in)
		if err != nil {
			t.Fatal(err)
		}
		return pc
	}
	items := [][2]string{{"I2320", "0.35"}, {"I0043", "0.35"}, {"I0005", "1"}, {"I1566", "2"}}
	pc := own("C0010-PROPRIA", items)
	// Computed here: each line at the sample's price, cut to cents as the
	// SINAPI model does (TRUNC₂: 0.35 × 22.72 = 7.952 → 7.95; 0.35 × 18.63
	// = 6.5205 → 6.52; 48.94; 2 × 0.72 = 1.44), summed.
	prices := map[string]string{"I2320": "22.72", "I0043": "18.63", "I0005": "48.94", "I1566": "0.72"}
	sum := decimal.Zero
	for _, it := range items {
		sum = sum.Add(mustDec(t, prices[it[0]]).Mul(mustDec(t, it[1])).Truncate(2))
	}
	if !sum.Equal(mustDec(t, "64.85")) {
		t.Fatalf("the independent sum is %s, SEINFRA publishes 64.85", sum)
	}
	if pc.Incomplete() || !pc.Prices.PND.Equal(sum) || !pc.Prices.PD.Equal(sum) {
		t.Errorf("priced %s / %s (missing %v), want %s in both regimes", pc.Prices.PND, pc.Prices.PD, pc.Missing, sum)
	}

	// A budget over the agency's edition: a resource line and the own
	// composition, no BDI: 10 × 22.72 + 2 × 64.85.
	pb, err := db.svc.CreateBudget(ctx, p, app.BudgetInput{
		Code: "ORC-CE", Description: "Obra no Ceará", State: "ce", BDI: decimal.Zero,
		Banks: []app.BankInput{{Name: "SEINFRA", State: "CE", Month: "03/2021"}},
		Items: []app.NodeInput{
			{Kind: domain.NodeResource, Bank: "SEINFRA", Code: "I2320", Quantity: mustDec(t, "10")},
			{Kind: domain.NodeComposition, Code: "C0010-PROPRIA", Quantity: mustDec(t, "2")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := mustDec(t, "22.72").Mul(mustDec(t, "10")).Add(sum.Mul(mustDec(t, "2"))); !pb.Totals.Total.Equal(want) {
		t.Errorf("budget total %s, want %s", pb.Totals.Total, want)
	}

	// The agency's next table drops I1566 (the edition replaced without
	// it): the composition reports it missing and leaves it out, never 0.
	data := editionData(eds)
	data[0].Replace = true
	kept := data[0].Resources[:0:0]
	for _, r := range data[0].Resources {
		if r.Code != "I1566" {
			kept = append(kept, r)
		}
	}
	data[0].Resources = kept
	if _, err := db.svc.ImportEditions(ctx, data); err != nil {
		t.Fatal(err)
	}
	pc, err = db.svc.Composition(ctx, p, pc.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(pc.Missing) != 1 || pc.Missing[0].Code != "I1566" {
		t.Errorf("missing = %+v, want I1566", pc.Missing)
	}
	if without := sum.Sub(mustDec(t, "1.44")); !pc.Prices.PND.Equal(without) {
		t.Errorf("with I1566 missing priced %s, want %s (the missing item left out)", pc.Prices.PND, without)
	}
}

// orseRows is a table in the layout orse.json describes (no real ORSE
// file was found: mappings/README.md), with real ORSE figures of March
// 2021 as a Sergipe budget quotes them (testdata/agency/README.md).
func orseRows(extra ...[]xlsxCell) [][]xlsxCell {
	t := func(s string) xlsxCell { return xlsxCell{text: s} }
	n := func(s string) xlsxCell { return xlsxCell{text: s, num: true} }
	rows := [][]xlsxCell{
		{t("CEHOP - Companhia Estadual de Habitação e Obras Públicas")},
		{t("ORSE - Orçamento de Obras de Sergipe")},
		{t("Tabela de preços - Março/2021")},
		{t("CÓDIGO"), t("DESCRIÇÃO"), t("UNIDADE"), t("TIPO"), t("PREÇO  UNITÁRIO (R$)")},
		{t("1"), t("FERRAMENTAS")}, // a group heading: no price
		{t("11249"), t("Serra circular eletrica portatil"), t("un"), t("Equipamento"), n("518.00")},
		{t("11246"), t("Escala métrica de bambú"), t("Un"), t("material"), n("9.05")},
		{t("04729"), t("Marreta 1 kg com cabo"), t("un"), t("MATERIAL"), n("27.5")},
		{t("06995"), t("Madeira mista serrada (sarrafo) 2,2 x 5,5cm - 0,00121 m³/m"), t("m"), t("Material"), n("3.7")},
		{t("05088"), t("Barracão para obras de médio porte, reaproveitamento 2 vezes"), t("m2"), t("Composição"), n("250.13")},
	}
	return append(rows, extra...)
}

func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMappingORSELayout reads a table in the ORSE mapping's layout: title
// rows skipped, headers matched without accents, case or extra spaces,
// classes turned into kinds, a heading row left out, codes kept as text.
func TestMappingORSELayout(t *testing.T) {
	path := writeTemp(t, "orse.xlsx", makeXLSX(t, orseRows()))
	m := readMapping(t, orseMapping)
	eds, sum, err := bankfiles.ReadMapped(context.Background(), m, path, "", "03/2021", bankfiles.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 6 || sum.Skipped != 1 || sum.Resources != 4 || sum.Compositions != 1 || len(eds) != 1 {
		t.Fatalf("summary %+v, %d editions", sum, len(eds))
	}
	ed := eds[0]
	if ed.Edition.Key() != "ORSE/SE/2021-03/" || len(ed.Edition.Regimes) != 2 {
		t.Errorf("edition %s regimes %v", ed.Edition.Key(), ed.Edition.Regimes)
	}
	types := map[string]int{}
	for _, r := range ed.Resources {
		types[r.Code] = r.Type
		if r.Code == "11246" && (!r.Prices.PND.Equal(mustDec(t, "9.05")) || r.Prices.PND.String() != "9.05" || !r.Prices.PD.Equal(r.Prices.PND)) {
			t.Errorf("11246 priced %s / %s, want 9.05 in both regimes, exactly", r.Prices.PND, r.Prices.PD)
		}
	}
	if types["11249"] != domain.TypeEquipment || types["04729"] != domain.TypeMaterial || types["06995"] != domain.TypeMaterial {
		t.Errorf("types %v", types)
	}
	if len(ed.Compositions) != 1 || ed.Compositions[0].Code != "05088" || !ed.Compositions[0].Cost.PND.Equal(mustDec(t, "250.13")) {
		t.Errorf("compositions %+v", ed.Compositions)
	}
}

// TestMappingRefusesBadMapping lists every fault of a mapping at once.
func TestMappingRefusesBadMapping(t *testing.T) {
	_, err := bankfiles.ReadMapping("bad.json", strings.NewReader(`{
		"bank": "sinapi", "state": "XX", "month": "2021-03", "decimals": 12, "separator": "|",
		"description": {"title": "Descrição", "column": "B"}, "unit": {"column": "b"},
		"class": {"title": "Tipo"},
		"prices": [{"title": "Preço", "regime": "com desoneração"}, {"column": "F", "regime": "single"}]}`))
	if err == nil {
		t.Fatal("a bad mapping was accepted")
	}
	for _, want := range []string{
		"bank: SINAPI has its own importer", `state: "XX"`, `month: "2021-03"`, "decimals: 12", `separator: "|"`,
		"code: is required", `description: give either "title" or "column"`, `unit: column "b" is not a column letter`,
		"classes: is required", `prices[0]: regime "com desoneração"`, "prices: a single price column stands for both regimes",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if domain.ErrorCode(err) != domain.EBADREQUEST {
		t.Errorf("code %q", domain.ErrorCode(err))
	}
	_, err = bankfiles.ReadMapping("typo.json", strings.NewReader(`{"bank": "ORSE", "skiprows": 3}`))
	if err == nil || !strings.Contains(err.Error(), `unknown field "skiprows"`) {
		t.Errorf("a misspelt key: err = %v", err)
	}
}

// TestMappingRefusesBadTable: a mapping whose columns the table lacks, and
// a table with bad rows, are refused with every fault listed, by line, and
// nothing is read into an edition.
func TestMappingRefusesBadTable(t *testing.T) {
	ctx := context.Background()
	m := readMapping(t, orseMapping)

	// Two columns the header lacks: both named, with the header read.
	rows := orseRows()
	rows[3] = []xlsxCell{{text: "Cód."}, {text: "DESCRIÇÃO"}, {text: "UNIDADE"}, {text: "TIPO"}, {text: "Preço"}}
	path := writeTemp(t, "orse.xlsx", makeXLSX(t, rows))
	_, _, err := bankfiles.ReadMapped(ctx, m, path, "", "03/2021", bankfiles.Limits{})
	for _, want := range []string{`line 4: code: no column "Código"`, `line 4: prices[0]: no column "Preço Unitário (R$)"`, "COD. | DESCRICAO"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing columns: the error does not say %q: %v", want, err)
		}
	}

	// Bad rows: each is named, all at once.
	tx := func(s string) xlsxCell { return xlsxCell{text: s} }
	path = writeTemp(t, "orse.xlsx", makeXLSX(t, orseRows(
		[]xlsxCell{tx("20001"), tx("Cimento"), tx("kg"), tx("Material"), tx("1,2x")},                 // line 11: not a number
		[]xlsxCell{tx("20002"), tx("Areia"), tx("m3"), tx("Material"), tx("90,125")},                 // line 12: three places
		[]xlsxCell{tx(""), tx("Brita"), tx("m3"), tx("Material"), tx("80,00")},                       // line 13: no code
		[]xlsxCell{tx("11246"), tx("Escala métrica de bambú"), tx("Un"), tx("material"), tx("9,05")}, // line 14: twice
		[]xlsxCell{tx("20003"), tx("Pedreiro"), tx("h"), tx("Operário"), tx("20,00")},                // line 15: class
		[]xlsxCell{tx("20004"), tx("Servente"), tx("h"), tx("Mão de obra"), tx("-3,00")},             // line 16: negative
	)))
	eds, _, err := bankfiles.ReadMapped(ctx, m, path, "", "03/2021", bankfiles.Limits{})
	if err == nil || eds != nil {
		t.Fatalf("bad rows accepted: %d editions", len(eds))
	}
	for _, want := range []string{
		"6 bad rows, nothing imported",
		`line 11: price "Preço Unitário (R$)" "1,2x" is not a number`,
		`line 12: price "Preço Unitário (R$)" "90,125" has more than 2 decimal places`,
		"line 13: the code is empty",
		"line 14: code 11246 is given twice: here and on line 7",
		`line 15: class "Operário" is not in the mapping's classes`,
		`line 16: price "Preço Unitário (R$)" "-3.00" is negative`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
}

// TestMappingCSVByLetters reads a CSV table without a header: columns by
// letter, a tab separator, decimal commas, two regimes in two columns, one
// of them blank on a row (that row priced in one regime only).
func TestMappingCSVByLetters(t *testing.T) {
	csv := "TABELA DE COMPOSIÇÕES\tREF. 05/2025\n" +
		"\n" +
		"C001\tALVENARIA DE VEDAÇÃO\tM2\t1.234,56\t1.200,10\n" +
		"C002\tCHAPISCO\tM2\t5,5\t\n"
	path := writeTemp(t, "tabela.csv", []byte(csv))
	yes := true
	m, err := bankfiles.ReadMapping("m.json", strings.NewReader(`{
		"bank": "emop", "state": "RJ", "month": "05/2025", "separator": "\t", "decimal_comma": true,
		"skip_rows": 2, "no_header": true, "decimals": 2, "kind": "composition",
		"code": {"column": "A"}, "description": {"column": "B"}, "unit": {"column": "C"},
		"prices": [{"column": "D", "regime": "nao-desonerado"}, {"column": "E", "regime": "desonerado"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.DecimalComma == nil || *m.DecimalComma != yes || m.Bank != "EMOP" {
		t.Fatalf("mapping %+v", m)
	}
	eds, sum, err := bankfiles.ReadMapped(context.Background(), m, path, "", "", bankfiles.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 2 || sum.Compositions != 2 || len(eds) != 2 {
		t.Fatalf("summary %+v, %d editions", sum, len(eds))
	}
	got := map[string]*domain.BankComposition{}
	regimes := map[string][]domain.Regime{} // the regimes of the group each code is imported with
	for _, ed := range eds {
		for _, c := range ed.Compositions {
			got[c.Code], regimes[c.Code] = c, ed.Edition.Regimes
		}
	}
	c1, c2 := got["C001"], got["C002"]
	if c1 == nil || !c1.Cost.PND.Equal(mustDec(t, "1234.56")) || !c1.Cost.PD.Equal(mustDec(t, "1200.10")) || len(regimes["C001"]) != 2 {
		t.Errorf("C001 = %+v, regimes %v", c1, regimes["C001"])
	}
	if c2 == nil || !c2.Cost.PND.Equal(mustDec(t, "5.5")) || len(regimes["C002"]) != 1 || regimes["C002"][0] != domain.NaoDesonerado {
		t.Errorf("C002 = %+v, regimes %v, want não desonerado only", c2, regimes["C002"])
	}
}

// TestMappingSheetAndLimits: the mapping's sheet is found by name (case
// and accents aside), a sheet the workbook lacks is refused naming those
// it has, and the caps of limits.go apply.
func TestMappingSheetAndLimits(t *testing.T) {
	ctx := context.Background()
	m := readMapping(t, seinfraMapping)
	m.Sheet = "INSUMOS"
	if _, _, err := bankfiles.ReadMapped(ctx, m, seinfraSample, "", "03/2021", bankfiles.Limits{}); err != nil {
		t.Errorf("sheet INSUMOS: %v", err)
	}
	m.Sheet = "Composições"
	if _, _, err := bankfiles.ReadMapped(ctx, m, seinfraSample, "", "03/2021", bankfiles.Limits{}); err == nil ||
		!strings.Contains(err.Error(), `no sheet "Composições" (it has insumos)`) {
		t.Errorf("a missing sheet: err = %v", err)
	}
	m.Sheet = "insumos"
	_, _, err := bankfiles.ReadMapped(ctx, m, seinfraSample, "", "03/2021", bankfiles.Limits{SharedStrings: 10})
	var le *bankfiles.LimitError
	if !errors.As(err, &le) || le.Cap != bankfiles.CapSharedStrings {
		t.Errorf("over the shared strings cap: err = %v", err)
	}
}
