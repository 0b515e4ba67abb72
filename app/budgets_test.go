package app_test

import (
	"context"
	"errors"
	"sort"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/jwtauth"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/shopspring/decimal"
)

// newSampleFixture is a service over a bbolt store (a temporary file) holding the real
// sample banks (SINAPI MG 08/2026 and SICRO3 AL 01/2024), with two
// companies.
func newSampleFixture(t testing.TB) *fixture {
	t.Helper()
	tokens, err := jwtauth.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	svc := app.New(newStore(t), tokens, app.Config{})
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}
	}
	if _, err := svc.ImportEditions(ctx, data); err != nil {
		t.Fatal(err)
	}
	tt, _ := t.(*testing.T)
	f := &fixture{t: tt, svc: svc}
	f.a = samplePrincipal(t, svc, "Alfa", "a@alfa.com")
	f.b = samplePrincipal(t, svc, "Beta", "b@beta.com")
	return f
}

func samplePrincipal(t testing.TB, svc *app.Service, company, email string) domain.Principal {
	t.Helper()
	nu, err := svc.AddUser(ctx, app.NewUserInput{Company: company, Email: email})
	if err != nil {
		t.Fatal(err)
	}
	s, err := svc.Authenticate(ctx, email, nu.SecretToken)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Authorize(ctx, s.Token)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var mgInput = app.BankInput{Name: "SINAPI", State: "MG", Month: "08/2026"}

// The published figures of SINAPI MG 08/2026 the budget below uses, copied
// from the sample's files (adapters/bankfiles/sample/data/sinapi-mg-202608:
// preco_mediano of insumos_mg_subset.csv and composicoes_mg_subset.csv,
// coefficients k of estrutura_2026-08_subset.json). They are written out
// here so that the expected figures are computed from the raw numbers, by
// this test, not by the code under test.
var (
	mgPrices = map[string][2]string{ // code → {não desonerado, desonerado}
		"89306": {"113.33", "110.13"}, // alvenaria estrutural, blocos cerâmicos 14x19x29, colher
		"89478": {"155.85", "152.15"}, // alvenaria, blocos de concreto 14x19x29, colher
		"88309": {"33.62", "31.67"},   // pedreiro com encargos (no structure in the sample)
		"88316": {"24.88", "23.58"},   // servente com encargos (no structure)
		"87286": {"713.59", "703.92"}, // argamassa 1:1:6 (no structure)
		"34586": {"2.62", "2.62"},
		"34649": {"3.48", "3.48"},
		"34788": {"1.61", "1.61"},
		"38588": {"2.64", "2.64"},
		"38590": {"4.39", "4.39"},
		"38596": {"5.43", "5.43"},
	}
	mgStructure = map[string][][2]string{ // composition → {item code, coefficient}
		"89306": {{"88316", "0.6505"}, {"88309", "1.1152"}, {"87286", "0.0175"}, {"34788", "1.54"}, {"34649", "1.28"}, {"34586", "15.37"}},
		"89478": {{"88316", "1.0804"}, {"88309", "1.0804"}, {"87286", "0.0187"}, {"38596", "1.29"}, {"38590", "15.54"}, {"38588", "1.55"}},
	}
	// The company's own base: one resource and two compositions, nested two
	// deep, in MG. OUTER holds INNER and the bank composition 89306, whose
	// structure is known, so the ABC curve reaches through both.
	ownPrice = [2]string{"12.345", "11.111"} // OWN-R, per KG
	inner    = [][3]string{{"MYBASE", "OWN-R", "0.5"}, {"SINAPI", "88309", "0.25"}, {"SINAPI", "34586", "3"}}
	outer    = [][3]string{{"MYBASE", "INNER", "2"}, {"SINAPI", "89306", "0.1"}, {"SINAPI", "34649", "1.5"}}
)

// createOwnBase creates OWN-R, INNER and OUTER in p's company.
func createOwnBase(t *testing.T, svc *app.Service, p domain.Principal) {
	t.Helper()
	_, err := svc.CreateResource(ctx, p, app.ResourceInput{Code: "OWN-R", Description: "Aditivo próprio", Type: domain.TypeMaterial, Unit: "KG",
		Locals: map[string]domain.PriceLine{"MG": {PND: dec(ownPrice[0]), PD: dec(ownPrice[1]), PNDI: dec(ownPrice[0]), PDI: dec(ownPrice[1])}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		code  string
		items [][3]string
	}{{"INNER", inner}, {"OUTER", outer}} {
		pc, err := svc.CreateComposition(ctx, p, app.CompositionInput{Code: c.code, Description: "Própria " + c.code, Unit: "M2", State: "MG"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.AddBanks(ctx, p, pc.ID, []app.BankInput{mgInput}); err != nil {
			t.Fatal(err)
		}
		var items []app.ItemInput
		for _, it := range c.items {
			items = append(items, app.ItemInput{Bank: it[0], Code: it[1], Quantity: dec(it[2])})
		}
		if _, err := svc.AddItems(ctx, p, pc.ID, items); err != nil {
			t.Fatal(err)
		}
	}
}

// sampleBudget is the budget of TestBudgetOverSINAPISample:
//
//	1     Alvenaria
//	1.1     SINAPI 89306  120.5 m²
//	1.2     SINAPI 89478  33.25 m²
//	2     Materiais e serviços próprios
//	2.1     SINAPI 34586 (resource) 1000 un
//	2.2     Próprias
//	2.2.1     MYBASE OUTER  10 m²
func sampleBudget(desonerado bool) app.BudgetInput {
	return app.BudgetInput{
		Code: "ORC-2026-001", Description: "Edifício residencial", Client: "Construtora Exemplo", State: "mg",
		Desonerado: desonerado, BDI: dec("25"), Banks: []app.BankInput{mgInput},
		Items: []app.NodeInput{
			{Kind: domain.NodeStage, Description: "Alvenaria", Items: []app.NodeInput{
				{Kind: domain.NodeComposition, Bank: "sinapi", Code: "89306", Quantity: dec("120.5")},
				{Kind: domain.NodeComposition, Bank: "SINAPI", Code: "89478", Quantity: dec("33.25")},
			}},
			{Kind: domain.NodeStage, Description: "Materiais e serviços próprios", Items: []app.NodeInput{
				{Kind: domain.NodeResource, Bank: "SINAPI", Code: "34586", Quantity: dec("1000")},
				{Kind: domain.NodeStage, Description: "Próprias", Items: []app.NodeInput{
					{Kind: domain.NodeComposition, Code: "OUTER", Quantity: dec("10")},
				}},
			}},
		},
	}
}

// TestBudgetOverSINAPISample prices a budget over the real sample and
// checks every figure of its synthetic report and every quantity of its ABC
// curve against figures this test computes itself from the published
// numbers, in both regimes.
func TestBudgetOverSINAPISample(t *testing.T) {
	for _, desonerado := range []bool{false, true} {
		name := "nao-desonerado"
		if desonerado {
			name = "desonerado"
		}
		t.Run(name, func(t *testing.T) { testBudgetOverSample(t, desonerado) })
	}
}

func testBudgetOverSample(t *testing.T, desonerado bool) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(desonerado))
	if err != nil {
		t.Fatal(err)
	}

	// The expected figures, from the raw numbers.
	reg := 0
	if desonerado {
		reg = 1
	}
	price := func(code string) decimal.Decimal {
		if code == "OWN-R" {
			return dec(ownPrice[reg])
		}
		p, ok := mgPrices[code]
		if !ok {
			t.Fatalf("test bug: no price for %s", code)
		}
		return dec(p[reg])
	}
	trunc := func(d decimal.Decimal) decimal.Decimal { return d.Truncate(2) }
	// Own compositions: Σ TRUNC₂(coefficient × unit price), a composition's
	// price being the unit price one level up.
	ownCost := map[string]decimal.Decimal{}
	for _, c := range []struct {
		code  string
		items [][3]string
	}{{"INNER", inner}, {"OUTER", outer}} {
		sum := decimal.Zero
		for _, it := range c.items {
			p, ok := ownCost[it[1]]
			if !ok {
				p = price(it[1])
			}
			sum = sum.Add(trunc(dec(it[2]).Mul(p)))
		}
		ownCost[c.code] = sum
	}
	linePrice := map[string]decimal.Decimal{
		"89306": price("89306"), "89478": price("89478"), "34586": price("34586"), "OUTER": ownCost["OUTER"],
	}
	bdi := dec("1.25")
	type fig struct{ price, priceBDI, total, totalBDI decimal.Decimal }
	lineFig := func(code, qty string) fig {
		p := linePrice[code]
		pb := trunc(p.Mul(bdi))
		return fig{p, pb, trunc(p.Mul(dec(qty))), trunc(pb.Mul(dec(qty)))}
	}
	l11, l12, l21, l221 := lineFig("89306", "120.5"), lineFig("89478", "33.25"), lineFig("34586", "1000"), lineFig("OUTER", "10")
	sum := func(fs ...fig) fig {
		var s fig
		for _, x := range fs {
			s.total, s.totalBDI = s.total.Add(x.total), s.totalBDI.Add(x.totalBDI)
		}
		return s
	}
	s1, s22 := sum(l11, l12), sum(l221)
	s2 := sum(l21, l221)
	all := sum(l11, l12, l21, l221)
	want := []struct {
		number, code string
		f            fig
	}{
		{"1", "", s1}, {"1.1", "89306", l11}, {"1.2", "89478", l12},
		{"2", "", s2}, {"2.1", "34586", l21}, {"2.2", "", s22}, {"2.2.1", "OUTER", l221},
	}

	syn, err := f.svc.SyntheticReport(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(syn.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(syn.Rows), len(want))
	}
	for i, w := range want {
		r := syn.Rows[i]
		got := fig{r.UnitPrice, r.UnitPriceWithBDI, r.Total, r.TotalWithBDI}
		if r.Number != w.number || r.Code != w.code {
			t.Errorf("row %d is %s %s, want %s %s", i, r.Number, r.Code, w.number, w.code)
		}
		if !got.price.Equal(w.f.price) || !got.priceBDI.Equal(w.f.priceBDI) || !got.total.Equal(w.f.total) || !got.totalBDI.Equal(w.f.totalBDI) {
			t.Errorf("row %s: price %s, with BDI %s, total %s, with BDI %s; want %s, %s, %s, %s", w.number,
				got.price, got.priceBDI, got.total, got.totalBDI, w.f.price, w.f.priceBDI, w.f.total, w.f.totalBDI)
		}
	}
	if !syn.Total.Equal(all.total) || !syn.TotalWithBDI.Equal(all.totalBDI) || !syn.BDIValue.Equal(all.totalBDI.Sub(all.total)) {
		t.Errorf("footer %s / %s / %s, want %s / %s / %s", syn.Total, syn.BDIValue, syn.TotalWithBDI,
			all.total, all.totalBDI.Sub(all.total), all.totalBDI)
	}
	if !pb.Totals.Total.Equal(all.total) || !pb.Totals.TotalWithBDI.Equal(all.totalBDI) {
		t.Errorf("CreateBudget answered totals %s / %s, want %s / %s", pb.Totals.Total, pb.Totals.TotalWithBDI, all.total, all.totalBDI)
	}
	if r := syn.Rows[1]; r.Bank != "SINAPI" || r.Month != "08/2026" || r.Unit != "M2" || r.Description == "" {
		t.Errorf("row 1.1 names %s %s, unit %s, description %q", r.Bank, r.Month, r.Unit, r.Description)
	}
	if desonerado {
		// A spot check of the figures computed above: 89306 desonerado is
		// 110.13; × 1.25 = 137.6625 → 137.66; × 120.5 = 13270.665 →
		// 13270.66 without BDI, 137.66 × 120.5 = 16588.03 with it.
		if !l11.total.Equal(dec("13270.66")) || !l11.totalBDI.Equal(dec("16588.03")) {
			t.Errorf("test bug: 89306 desonerado figures %s, %s", l11.total, l11.totalBDI)
		}
	}

	// The ABC quantities: every line taken down to its leaves. 88309,
	// 88316 and 87286 have no structure in the sample: they stay whole.
	qty := map[string]decimal.Decimal{}
	add := func(code string, q decimal.Decimal) { qty[code] = qty[code].Add(q) }
	bank := func(code string, q decimal.Decimal) {
		if items, ok := mgStructure[code]; ok {
			for _, it := range items {
				add(it[0], q.Mul(dec(it[1])))
			}
			return
		}
		add(code, q)
	}
	bank("89306", dec("120.5"))
	bank("89478", dec("33.25"))
	add("34586", dec("1000"))
	outerQty := dec("10")
	for _, o := range outer { // OUTER = 2 INNER + 0.1 × 89306 + 1.5 × 34649
		q := outerQty.Mul(dec(o[2]))
		switch o[1] {
		case "INNER":
			for _, i := range inner {
				bank(i[1], q.Mul(dec(i[2])))
			}
		default:
			bank(o[1], q)
		}
	}
	abc, err := f.svc.ABCReport(ctx, f.a, pb.ID, domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range abc.Rows {
		got[r.Code] = r.Quantity.String() + " × " + r.UnitPrice.String() + " = " + r.Total.StringFixed(2)
	}
	wantRows := map[string]string{}
	wantTotal := decimal.Zero
	for code, q := range qty {
		total := trunc(q.Mul(price(code)))
		wantTotal = wantTotal.Add(total)
		wantRows[code] = q.String() + " × " + price(code).String() + " = " + total.StringFixed(2)
	}
	if diff := cmp.Diff(wantRows, got); diff != "" {
		t.Errorf("ABC rows (-want +got):\n%s", diff)
	}
	// 88309 (pedreiro), spelled out: 1.1152 × 120.5 + 1.0804 × 33.25 from
	// the two bank lines, 0.25 × 2 × 10 through INNER, 1.1152 × 0.1 × 10
	// through OUTER's 89306: 134.3816 + 35.9233 + 5 + 1.1152 = 176.4201 h.
	if !qty["88309"].Equal(dec("176.4201")) {
		t.Errorf("test bug: 88309 quantity %s", qty["88309"])
	}
	if !abc.Total.Equal(wantTotal) {
		t.Errorf("ABC total %s, want %s", abc.Total, wantTotal)
	}
	totals := make([]decimal.Decimal, len(abc.Rows))
	for i, r := range abc.Rows {
		totals[i] = r.Total
	}
	if !sort.SliceIsSorted(totals, func(i, j int) bool { return totals[i].GreaterThan(totals[j]) }) ||
		!abc.Rows[len(abc.Rows)-1].CumulativePercent.Equal(dec("100")) || abc.Rows[0].Class != domain.ClassA {
		t.Errorf("curve not ranked: first %+v, last %+v", abc.Rows[0], abc.Rows[len(abc.Rows)-1])
	}

	// The analytic report opens 89306 through its published structure:
	// 34586 is 15.37 × 2.62 = 40.2694 → 40.26.
	an, err := f.svc.AnalyticReport(ctx, f.a, pb.ID)
	if err != nil {
		t.Fatal(err)
	}
	if items := an.Rows[1].Items; len(items) != 6 || items[5].Code != "34586" || !items[5].Partial.Equal(dec("40.26")) {
		t.Errorf("89306 opened: %+v", items)
	}
	if items := an.Rows[6].Items; len(items) != 3 || len(items[0].Items) != 3 || len(items[1].Items) != 6 {
		t.Errorf("OUTER opened: INNER and 89306 should open in turn: %+v", items)
	}
	// 88309 and 88316 stay whole, but SINAPI names them "… COM ENCARGOS
	// COMPLEMENTARES": they count as labour.
	labour := trunc(qty["88309"].Mul(price("88309"))).Add(trunc(qty["88316"].Mul(price("88316"))))
	if !an.Summary.Labor.Equal(labour) || !an.Summary.Equipment.IsZero() {
		t.Errorf("analytic summary %+v, want labour %s", an.Summary, labour)
	}
	if !an.Summary.Total().Equal(abc.Total) {
		t.Errorf("analytic summary %s, ABC total %s", an.Summary.Total(), abc.Total)
	}

	// Company B sees none of it.
	b := f.b
	_, err = f.svc.Budget(ctx, b, pb.ID)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.SyntheticReport(ctx, b, pb.ID)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.AnalyticReport(ctx, b, pb.ID)
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.ABCReport(ctx, b, pb.ID, domain.ABCLimits{})
	wantCode(t, err, domain.ENOTFOUND)
	if list, n, err := f.svc.Budgets(ctx, b, app.ListQuery{}); err != nil || n != 0 || len(list) != 0 {
		t.Errorf("company B lists %d budgets (%v)", n, err)
	}
}

func countBudgets(t *testing.T, f *fixture, p domain.Principal) int {
	t.Helper()
	_, n, err := f.svc.Budgets(ctx, p, app.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestCreateBudgetChecksEveryLine: every bad field is named at once, by its
// pointer in the body, and nothing is saved.
func TestCreateBudgetChecksEveryLine(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	in := sampleBudget(false)
	in.Items[0].Items[1].Code = "99999"                          // not in the edition
	in.Items[1].Items[1].Items[0].Code = "NOPE"                  // no such own composition
	in.Items[1].Items = append(in.Items[1].Items, app.NodeInput{ // a bank the budget lacks
		Kind: domain.NodeResource, Bank: "ORSE", Code: "1", Quantity: dec("1")})
	in.Items = append(in.Items, app.NodeInput{Kind: domain.NodeResource, Code: "34586", Quantity: dec("1")}) // no own resource 34586
	_, err := f.svc.CreateBudget(ctx, f.a, in)
	for _, field := range []string{"/items/0/items/1/code", "/items/1/items/1/items/0/code", "/items/1/items/2/bank", "/items/2/code"} {
		wantField(t, err, field)
	}
	if n := countBudgets(t, f, f.a); n != 0 {
		t.Errorf("a refused budget was saved: %d budgets", n)
	}

	in = sampleBudget(false)
	in.Banks = []app.BankInput{{Name: "SINAPI", State: "MG", Month: "09/2026"}}
	in.BDIMode, in.Rounding, in.BDI = "total", "ceil", dec("-1")
	_, err = f.svc.CreateBudget(ctx, f.a, in)
	for _, field := range []string{"/banks/0", "/bdi", "/bdi_mode", "/rounding"} {
		wantField(t, err, field)
	}

	// An own resource needs a price in the budget's state.
	if _, err := f.svc.CreateResource(ctx, f.a, app.ResourceInput{Code: "SP-ONLY", Description: "x", Type: 4, Unit: "UN",
		Locals: map[string]domain.PriceLine{"SP": {PND: dec("1")}}}); err != nil {
		t.Fatal(err)
	}
	in = sampleBudget(false)
	in.Items = []app.NodeInput{{Kind: domain.NodeResource, Bank: "MYBASE", Code: "SP-ONLY", Quantity: dec("1")}}
	_, err = f.svc.CreateBudget(ctx, f.a, in)
	wantField(t, err, "/items/0/code")

	// Company B cannot use A's own composition.
	in = sampleBudget(false)
	_, err = f.svc.CreateBudget(ctx, f.b, in)
	wantField(t, err, "/items/1/items/1/items/0/code")
}

func TestBudgetDefaultsAndCodes(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	if pb.BDIMode != domain.BDIOnUnitPrice || pb.Rounding != domain.BudgetTruncate || pb.State != "MG" || pb.Banks[0].Name != "SINAPI" {
		t.Errorf("defaults: mode %s, rounding %s, state %s, banks %v", pb.BDIMode, pb.Rounding, pb.State, pb.Banks)
	}
	if pb.CreatedAt.IsZero() || !pb.UpdatedAt.Equal(pb.CreatedAt) || pb.UserID != f.a.UserID {
		t.Errorf("times and creator: %v %v %s", pb.CreatedAt, pb.UpdatedAt, pb.UserID)
	}
	_, err = f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	wantField(t, err, "/code")
	other := sampleBudget(false)
	other.Code, other.Items = "ORC-2", nil
	o, err := f.svc.CreateBudget(ctx, f.a, other)
	if err != nil {
		t.Fatalf("an empty budget: %v", err)
	}
	if !o.Totals.Total.IsZero() {
		t.Errorf("an empty budget totals %s", o.Totals.Total)
	}
	code := "ORC-2026-001"
	_, err = f.svc.UpdateBudget(ctx, f.a, o.ID, app.BudgetPatch{Code: &code})
	wantField(t, err, "/code")
	// The same code is free in another company (its lines use no own base).
	other.Code = code
	if _, err := f.svc.CreateBudget(ctx, f.b, other); err != nil {
		t.Errorf("the same code in another company: %v", err)
	}
}

func TestBudgetIsolation(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	b := f.b
	desc := "mine now"
	_, err = f.svc.UpdateBudget(ctx, b, pb.ID, app.BudgetPatch{Description: &desc})
	wantCode(t, err, domain.ENOTFOUND)
	wantCode(t, f.svc.DeleteBudget(ctx, b, pb.ID), domain.ENOTFOUND)
	_, _, err = f.svc.AddBudgetNode(ctx, b, pb.ID, app.NodePlace{}, app.NodeInput{Kind: domain.NodeStage, Description: "x"})
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.MoveBudgetNode(ctx, b, pb.ID, "n1", app.NodePlace{})
	wantCode(t, err, domain.ENOTFOUND)
	_, err = f.svc.UpdateBudgetNode(ctx, b, pb.ID, "n1", app.NodePatch{Description: &desc})
	wantCode(t, err, domain.ENOTFOUND)
	_, _, err = f.svc.RemoveBudgetNode(ctx, b, pb.ID, "n1")
	wantCode(t, err, domain.ENOTFOUND)
	got, err := f.svc.Budget(ctx, f.a, pb.ID)
	if err != nil || got.Description != "Edifício residencial" || got.Lines() != 4 {
		t.Errorf("A's budget after B's attempts: %v, %+v", err, got)
	}
}

func TestBudgetNodeOperations(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	id := pb.ID
	outline := func() []string {
		t.Helper()
		b, err := f.svc.Budget(ctx, f.a, id)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range b.Outline() {
			out = append(out, e.Number+" "+e.Node.ID+" "+e.Node.Code+e.Node.Description)
		}
		return out
	}
	start := []string{"1 n1 Alvenaria", "1.1 n2 89306", "1.2 n3 89478", "2 n4 Materiais e serviços próprios",
		"2.1 n5 34586", "2.2 n6 Próprias", "2.2.1 n7 OUTER"}
	if diff := cmp.Diff(start, outline()); diff != "" {
		t.Fatalf("start (-want +got):\n%s", diff)
	}

	// A line whose code does not exist: named from the node, nothing changes.
	_, _, err = f.svc.AddBudgetNode(ctx, f.a, id, app.NodePlace{ParentID: "n1"}, app.NodeInput{
		Kind: domain.NodeStage, Description: "Nova", Items: []app.NodeInput{
			{Kind: domain.NodeComposition, Bank: "SINAPI", Code: "89290", Quantity: dec("1")},
			{Kind: domain.NodeComposition, Bank: "SINAPI", Code: "00000", Quantity: dec("1")},
		}})
	wantField(t, err, "/items/1/code")
	_, _, err = f.svc.AddBudgetNode(ctx, f.a, id, app.NodePlace{ParentID: "n2"}, app.NodeInput{Kind: domain.NodeStage, Description: "x"})
	wantField(t, err, "/parent_id")
	neg := -1
	_, _, err = f.svc.AddBudgetNode(ctx, f.a, id, app.NodePlace{Position: &neg}, app.NodeInput{Kind: domain.NodeStage, Description: "x"})
	wantField(t, err, "/position")
	if diff := cmp.Diff(start, outline()); diff != "" {
		t.Fatalf("after refused adds (-want +got):\n%s", diff)
	}

	zero := 0
	after, nodeID, err := f.svc.AddBudgetNode(ctx, f.a, id, app.NodePlace{ParentID: "n1", Position: &zero}, app.NodeInput{
		Kind: domain.NodeStage, Description: "Nova", Items: []app.NodeInput{
			{Kind: domain.NodeComposition, Bank: "SINAPI", Code: "89290", Quantity: dec("2")},
		}})
	if err != nil {
		t.Fatal(err)
	}
	// 89290 não desonerado is 102.80: 2 × 102.80 = 205.60 more.
	if nodeID != "n8" || !after.Totals.Total.Equal(pb.Totals.Total.Add(dec("205.60"))) {
		t.Errorf("added %s, total %s, want n8 and %s + 205.60", nodeID, after.Totals.Total, pb.Totals.Total)
	}
	if _, err := f.svc.MoveBudgetNode(ctx, f.a, id, "n6", app.NodePlace{}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.MoveBudgetNode(ctx, f.a, id, "n4", app.NodePlace{ParentID: "n4"})
	wantField(t, err, "/parent_id")
	_, err = f.svc.MoveBudgetNode(ctx, f.a, id, "n99", app.NodePlace{})
	wantCode(t, err, domain.ENOTFOUND)
	qty, title := dec("121"), "Alvenaria estrutural"
	if _, err := f.svc.UpdateBudgetNode(ctx, f.a, id, "n2", app.NodePatch{Quantity: &qty}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.UpdateBudgetNode(ctx, f.a, id, "n1", app.NodePatch{Description: &title}); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.UpdateBudgetNode(ctx, f.a, id, "n2", app.NodePatch{Description: &title})
	wantField(t, err, "/description")
	_, err = f.svc.UpdateBudgetNode(ctx, f.a, id, "n1", app.NodePatch{Quantity: &qty})
	wantField(t, err, "/quantity")
	bad := dec("0")
	_, err = f.svc.UpdateBudgetNode(ctx, f.a, id, "n2", app.NodePatch{Quantity: &bad})
	wantField(t, err, "/quantity")
	_, err = f.svc.UpdateBudgetNode(ctx, f.a, id, "n99", app.NodePatch{Quantity: &qty})
	wantCode(t, err, domain.ENOTFOUND)
	if _, _, err := f.svc.RemoveBudgetNode(ctx, f.a, id, "n3"); err != nil {
		t.Fatal(err)
	}
	_, _, err = f.svc.RemoveBudgetNode(ctx, f.a, id, "n3")
	wantCode(t, err, domain.ENOTFOUND)
	want := []string{"1 n1 Alvenaria estrutural", "1.1 n8 Nova", "1.1.1 n9 89290", "1.2 n2 89306",
		"2 n4 Materiais e serviços próprios", "2.1 n5 34586", "3 n6 Próprias", "3.1 n7 OUTER"}
	if diff := cmp.Diff(want, outline()); diff != "" {
		t.Errorf("after the operations (-want +got):\n%s", diff)
	}
	syn, err := f.svc.SyntheticReport(ctx, f.a, id)
	if err != nil {
		t.Fatal(err)
	}
	// 89306: 113.33 × 121 = 13712.93.
	if r := syn.Rows[3]; r.Number != "1.2" || !r.Total.Equal(dec("13712.93")) {
		t.Errorf("row %s total %s, want 1.2 13712.93", r.Number, r.Total)
	}
	later := pb.CreatedAt.Add(time.Hour)
	f.svc.Now = func() time.Time { return later }
	if _, _, err := f.svc.RemoveBudgetNode(ctx, f.a, id, "n5"); err != nil {
		t.Fatal(err)
	}
	got, _ := f.svc.Budget(ctx, f.a, id)
	if !got.UpdatedAt.Equal(later) || !got.CreatedAt.Equal(pb.CreatedAt) {
		t.Errorf("created_at %v, updated_at %v; want %v, %v", got.CreatedAt, got.UpdatedAt, pb.CreatedAt, later)
	}
}

func TestUpdateBudget(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	// Another SINAPI MG edition, 09/2026, that lacks 89478.
	if _, err := f.svc.ImportEditions(ctx, []app.EditionData{{
		Edition: domain.Edition{Bank: "SINAPI", State: "MG", Month: "09/2026", Regimes: []domain.Regime{domain.NaoDesonerado, domain.Desonerado}},
		Resources: []*domain.BankResource{{Code: "34586", Description: "BLOCO", Unit: "UN", Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: dec("3"), PD: dec("3")}}},
		Compositions: []*domain.BankComposition{{Code: "89306", Description: "ALVENARIA", Unit: "M2", Cost: domain.UnitPrice{PND: dec("120"), PD: dec("118")}}},
	}}); err != nil {
		t.Fatal(err)
	}
	sep := app.BankInput{Name: "SINAPI", State: "MG", Month: "09/2026"}
	_, err = f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{Banks: []app.BankInput{sep}})
	wantField(t, err, "/items/0/items/1/code")
	got, _ := f.svc.Budget(ctx, f.a, pb.ID)
	if got.Banks[0].Month != "08/2026" || !got.Totals.Total.Equal(pb.Totals.Total) {
		t.Errorf("a refused patch changed the budget: %v, %s", got.Banks, got.Totals.Total)
	}
	// Moving the budget to SP loses the own compositions (they are MG's).
	sp := "SP"
	_, err = f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{State: &sp})
	wantField(t, err, "/items/1/items/1/items/0/code")

	// The final-total mode, rounding: BDI = ROUND(total × 0.2835).
	mode, rounding, rate := domain.BDIOnFinalTotal, domain.BudgetRound, dec("28.35")
	upd, err := f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{BDIMode: &mode, Rounding: &rounding, BDI: &rate})
	if err != nil {
		t.Fatal(err)
	}
	syn, _ := f.svc.SyntheticReport(ctx, f.a, pb.ID)
	wantBDI := upd.Totals.Total.Mul(dec("0.2835")).Round(2)
	if !upd.Totals.BDIValue.Equal(wantBDI) || !syn.BDIValue.Equal(wantBDI) || !upd.Totals.TotalWithBDI.Equal(upd.Totals.Total.Add(wantBDI)) {
		t.Errorf("final total mode: BDI %s, want %s", upd.Totals.BDIValue, wantBDI)
	}
	// Replacing the tree gives new node IDs, counting on.
	rep, err := f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{Items: []app.NodeInput{
		{Kind: domain.NodeResource, Bank: "SINAPI", Code: "34586", Quantity: dec("10")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Items[0].ID != "n8" || !rep.Totals.Total.Equal(dec("26.20")) {
		t.Errorf("replaced tree: id %s, total %s; want n8, 26.20", rep.Items[0].ID, rep.Totals.Total)
	}
	// Now the budget can move to 09/2026: its line exists there (3.00).
	rep, err = f.svc.UpdateBudget(ctx, f.a, pb.ID, app.BudgetPatch{Banks: []app.BankInput{sep}})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Totals.Total.Equal(dec("30")) {
		t.Errorf("repriced in 09/2026: %s, want 30", rep.Totals.Total)
	}
	if err := f.svc.DeleteBudget(ctx, f.a, pb.ID); err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.Budget(ctx, f.a, pb.ID)
	wantCode(t, err, domain.ENOTFOUND)
}

func TestBudgetList(t *testing.T) {
	f := newSampleFixture(t)
	for _, b := range []struct{ code, desc, client string }{
		{"ORC-10", "Reforma da fachada", "João"},
		{"ORC-9", "Construção de muro", "Ana"},
		{"ORC-2", "Ampliação", "Condomínio Água Limpa"},
	} {
		in := app.BudgetInput{Code: b.code, Description: b.desc, Client: b.client, State: "MG", BDI: dec("20"),
			Banks: []app.BankInput{mgInput}, Items: []app.NodeInput{{Kind: domain.NodeResource, Bank: "SINAPI", Code: "34586", Quantity: dec("1")}}}
		if _, err := f.svc.CreateBudget(ctx, f.a, in); err != nil {
			t.Fatal(err)
		}
	}
	codes := func(q app.ListQuery) []string {
		t.Helper()
		list, _, err := f.svc.Budgets(ctx, f.a, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range list {
			out = append(out, b.Code)
			if !b.Totals.Total.Equal(dec("2.62")) {
				t.Errorf("%s listed with total %s, want 2.62", b.Code, b.Totals.Total)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name string
		q    app.ListQuery
		want []string
	}{
		{"creation order", app.ListQuery{}, []string{"ORC-10", "ORC-9", "ORC-2"}},
		{"by code, naturally", app.ListQuery{Sort: []app.SortKey{{Field: "code"}}}, []string{"ORC-2", "ORC-9", "ORC-10"}},
		{"by client, descending", app.ListQuery{Sort: []app.SortKey{{Field: "client", Desc: true}}}, []string{"ORC-10", "ORC-2", "ORC-9"}},
		{"search ignores case and accents", app.ListQuery{Filters: map[string]string{"search": "agua"}}, []string{"ORC-2"}},
		{"search reads descriptions", app.ListQuery{Filters: map[string]string{"search": "CONSTRUCAO"}}, []string{"ORC-9"}},
		{"state", app.ListQuery{Filters: map[string]string{"location": "mg"}}, []string{"ORC-10", "ORC-9", "ORC-2"}},
		{"dates", app.ListQuery{Filters: map[string]string{"created_before": "2000-01-01"}}, nil},
		{"page", app.ListQuery{Sort: []app.SortKey{{Field: "code"}}, Page: app.Page{Offset: 1, Limit: 1}}, []string{"ORC-9"}},
	} {
		if diff := cmp.Diff(tc.want, codes(tc.q)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	_, _, err := f.svc.Budgets(ctx, f.a, app.ListQuery{Sort: []app.SortKey{{Field: "total"}}})
	wantCode(t, err, domain.EBADREQUEST)
}

// TestBudgetReferences: own records a budget uses cannot be deleted or
// recoded.
func TestBudgetReferences(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	in := sampleBudget(false)
	in.Items = append(in.Items, app.NodeInput{Kind: domain.NodeResource, Code: "OWN-R", Quantity: dec("2")})
	pb, err := f.svc.CreateBudget(ctx, f.a, in)
	if err != nil {
		t.Fatal(err)
	}
	own, err := f.svc.CompositionByCode(ctx, f.a, "OUTER", "MG")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.svc.ResourceByCode(ctx, f.a, "OWN-R")
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, f.svc.DeleteComposition(ctx, f.a, own.ID), domain.ECONFLICT)
	code := "OUTER-2"
	_, err = f.svc.UpdateComposition(ctx, f.a, own.ID, app.CompositionPatch{Code: &code})
	wantCode(t, err, domain.ECONFLICT)
	// OWN-R is also an item of INNER: that is named first. Once INNER no
	// longer uses it, the budget's line still holds it.
	err = f.svc.DeleteResource(ctx, f.a, res.ID)
	wantCode(t, err, domain.ECONFLICT)
	inner, _ := f.svc.CompositionByCode(ctx, f.a, "INNER", "MG")
	if _, err := f.svc.RemoveItems(ctx, f.a, inner.ID, []app.ItemRef{{Bank: "MYBASE", Code: "OWN-R"}}); err != nil {
		t.Fatal(err)
	}
	err = f.svc.DeleteResource(ctx, f.a, res.ID)
	wantCode(t, err, domain.ECONFLICT)
	if msg := domain.ErrorMessage(err); msg != "resource OWN-R is used by budgets ORC-2026-001" {
		t.Errorf("message %q", msg)
	}
	if _, _, err := f.svc.RemoveBudgetNode(ctx, f.a, pb.ID, "n8"); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteResource(ctx, f.a, res.ID); err != nil {
		t.Errorf("an unused resource: %v", err)
	}
	if err := f.svc.DeleteBudget(ctx, f.a, pb.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.DeleteComposition(ctx, f.a, own.ID); err != nil {
		t.Errorf("a composition no budget uses: %v", err)
	}
}

func TestABCReportLimits(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.svc.ABCReport(ctx, f.a, pb.ID, domain.ABCLimits{A: dec("90"), B: dec("80")})
	wantField(t, err, "abcLimits")
	r, err := f.svc.ABCReport(ctx, f.a, pb.ID, domain.ABCLimits{A: dec("20"), B: dec("95")})
	if err != nil {
		t.Fatal(err)
	}
	var classes string
	for _, row := range r.Rows {
		classes += string(row.Class)
	}
	// Cumulative: 34.74, 61.61, 74.56, 84.84, 93.72, 96.41, … (see the
	// sample test): the first row crosses 20%, the sixth crosses 95%.
	if classes != "ABBBBBCCCC" {
		t.Errorf("classes %s, want ABBBBBCCCC", classes)
	}
}

// TestStreamedReportsAreTheWholeOnes: over the real sample, the streamed
// synthetic and analytic reports (SyntheticReportStream, AnalyticReportStream:
// two passes over the stored tree) hand out the rows of the reports computed
// whole, with the same footer and missing list; a budget with a quantity of
// 19 digits, past the 64-bit path, is streamed too (its figures computed in
// decimal inside the one computation) and gives the same rows.
func TestStreamedReportsAreTheWholeOnes(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	in := sampleBudget(false)
	pb, err := f.svc.CreateBudget(ctx, f.a, in)
	if err != nil {
		t.Fatal(err)
	}
	in.Code = "ORC-WIDE"
	in.Items[0].Items[0].Quantity = dec("123456789012.1234567") // 19 digits
	wide, err := f.svc.CreateBudget(ctx, f.a, in)
	if err != nil {
		t.Fatal(err)
	}
	same := cmp.Options{cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) }), cmpopts.EquateEmpty(),
		cmpopts.IgnoreUnexported(domain.SyntheticReport{}, domain.AnalyticReport{}), cmpopts.IgnoreFields(domain.SyntheticReport{}, "Budget"),
		cmpopts.IgnoreFields(domain.AnalyticReport{}, "Budget")}
	for _, id := range []string{pb.ID, wide.ID} {
		whole, err := f.svc.SyntheticReport(ctx, f.a, id)
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := f.svc.SyntheticReportStream(ctx, f.a, id)
		if err != nil {
			t.Fatal(err)
		}
		if streamed.Rows != nil {
			t.Fatalf("%s: computed whole, want streamed", id)
		}
		var rows []domain.SyntheticRow
		_ = streamed.Each(func(r *domain.SyntheticRow) error { rows = append(rows, *r); return nil })
		if len(rows) == 0 || len(rows) != streamed.Len() {
			t.Fatalf("%s: %d rows streamed, Len %d", id, len(rows), streamed.Len())
		}
		streamed.Rows = rows
		if d := cmp.Diff(whole, streamed, same); d != "" {
			t.Errorf("%s: synthetic (-whole +streamed):\n%s", id, d)
		}
		awhole, err := f.svc.AnalyticReport(ctx, f.a, id)
		if err != nil {
			t.Fatal(err)
		}
		astreamed, err := f.svc.AnalyticReportStream(ctx, f.a, id)
		if err != nil {
			t.Fatal(err)
		}
		var arows []domain.AnalyticRow
		_ = astreamed.Each(func(r *domain.AnalyticRow) error { arows = append(arows, *r); return nil })
		astreamed.Rows = arows
		if d := cmp.Diff(awhole, astreamed, same); d != "" {
			t.Errorf("%s: analytic (-whole +streamed):\n%s", id, d)
		}
	}
	// Another company's budget is not found, streamed too.
	if _, err := f.svc.SyntheticReportStream(ctx, f.b, pb.ID); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Fatalf("another company's budget: %v, want ENOTFOUND", err)
	}
}

// TestStreamedReportsStopWhenTheContextEnds: a streamed report computed for
// a request whose client then goes away (its context cancelled) hands out
// no more rows: Each ends with the context's error.
func TestStreamedReportsStopWhenTheContextEnds(t *testing.T) {
	f := newSampleFixture(t)
	createOwnBase(t, f.svc, f.a)
	pb, err := f.svc.CreateBudget(ctx, f.a, sampleBudget(false))
	if err != nil {
		t.Fatal(err)
	}
	for name, get := range map[string]func(context.Context) (interface{ Len() int }, func(func()) error, error){
		"synthetic": func(c context.Context) (interface{ Len() int }, func(func()) error, error) {
			r, err := f.svc.SyntheticReportStream(c, f.a, pb.ID)
			return r, func(fn func()) error { return r.Each(func(*domain.SyntheticRow) error { fn(); return nil }) }, err
		},
		"analytic": func(c context.Context) (interface{ Len() int }, func(func()) error, error) {
			r, err := f.svc.AnalyticReportStream(c, f.a, pb.ID)
			return r, func(fn func()) error { return r.Each(func(*domain.AnalyticRow) error { fn(); return nil }) }, err
		},
	} {
		c, cancel := context.WithCancel(ctx)
		r, each, err := get(c)
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		if err := each(func() { rows++ }); err != nil || rows != r.Len() || rows == 0 {
			t.Fatalf("%s: %d rows of %d, %v", name, rows, r.Len(), err)
		}
		cancel()
		rows = 0
		if err := each(func() { rows++ }); !errors.Is(err, context.Canceled) || rows != 0 {
			t.Errorf("%s: %d rows after the client went away, %v; want none, context.Canceled", name, rows, err)
		}
	}
}
