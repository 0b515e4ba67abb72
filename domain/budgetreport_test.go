package domain_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// The small world of these tests, with round numbers so that every figure
// can be checked by hand. Edition SINAPI MG 08/2026:
//
//	R1   material   10.00 (both regimes)
//	R2   labour     20.00 ND, 18.00 D
//	E1   equipment  productive 100.00, idle 40.00
//	BC1  composition with structure: 2 R1 + 0.5 BC2, published 35.00 (= 20 + 15)
//	BC2  composition without structure, published 30.00 ND, 28.00 D
//
// Own base (MG): resource OR1 5.00, and three compositions nested three deep:
//
//	INNER = 3 OR1 + 0.5 R2           = 15.00 + 10.00 = 25.00 (D 24.00)
//	MID   = 2 INNER + 1 BC1          = 50.00 + 35.00 = 85.00
//	OUTER = 1.5 MID + 1 R1           = 127.50 + 10.00 = 137.50
var (
	mg08 = domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}
)

func worldSource() *countingSource {
	k := func(code string) string { return mg08.EditionKey() + " " + code }
	res := func(code string, typ int, nd, d string) *domain.BankResource {
		return &domain.BankResource{Code: code, Description: "Recurso " + code, Unit: "UN", Type: typ,
			Prices: domain.PriceLine{PND: dec(nd), PD: dec(d), PNDI: dec(nd), PDI: dec(d)}}
	}
	e1 := res("E1", domain.TypeEquipment, "100", "100")
	e1.Prices.PNDI, e1.Prices.PDI = dec("40"), dec("40")
	own := func(code string, items ...domain.Item) *domain.Composition {
		return &domain.Composition{ID: "id-" + code, Code: code, Description: "Composição " + code, Unit: "M2",
			State: "MG", Rounding: domain.Truncate2, Banks: []domain.BankRef{mg08}, Items: items}
	}
	return &countingSource{fakeSource: fakeSource{
		ownRes: map[string]*domain.Resource{"OR1": {Code: "OR1", Description: "Recurso próprio", Unit: "KG",
			Type: domain.TypeMaterial, Locals: map[string]domain.PriceLine{"MG": {PND: dec("5"), PD: dec("5")}}}},
		ownComp: map[string]*domain.Composition{
			"INNER": own("INNER", item("MYBASE", "OR1", domain.KindResource, "3"), item("SINAPI", "R2", domain.KindResource, "0.5")),
			"MID":   own("MID", item("MYBASE", "INNER", domain.KindComposition, "2"), item("SINAPI", "BC1", domain.KindComposition, "1")),
			"OUTER": own("OUTER", item("MYBASE", "MID", domain.KindComposition, "1.5"), item("SINAPI", "R1", domain.KindResource, "1")),
		},
		bankRes: map[string]*domain.BankResource{
			k("R1"): res("R1", domain.TypeMaterial, "10", "10"),
			k("R2"): res("R2", domain.TypeLabor, "20", "18"),
			k("E1"): e1,
		},
		bankComp: map[string]*domain.BankComposition{
			k("BC1"): {Code: "BC1", Description: "Com estrutura", Unit: "M3", Cost: up("35", "34"), Items: []domain.StructureItem{
				{Kind: domain.KindResource, Code: "R1", Coefficient: dec("2")},
				{Kind: domain.KindComposition, Code: "BC2", Coefficient: dec("0.5")},
			}},
			k("BC2"): {Code: "BC2", Description: "Sem estrutura", Unit: "H", Cost: up("30", "28")},
		},
	}}
}

// countingSource counts the look-ups that reach the source.
type countingSource struct {
	fakeSource
	calls int
}

func (s *countingSource) OwnResource(code string) (*domain.Resource, error) {
	s.calls++
	return s.fakeSource.OwnResource(code)
}

func (s *countingSource) OwnComposition(code, state string) (*domain.Composition, error) {
	s.calls++
	return s.fakeSource.OwnComposition(code, state)
}

func (s *countingSource) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	s.calls++
	return s.fakeSource.BankResource(ref, code)
}

func (s *countingSource) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	s.calls++
	return s.fakeSource.BankComposition(ref, code)
}

// worldBudget:
//
//	1     Fundação
//	1.1     OUTER  2
//	1.2     Sub
//	1.2.1     BC1  4
//	2     Acabamento
//	2.1     BC2  1
//	2.2     R1   10
func worldBudget(mode domain.BDIMode) *domain.Budget {
	b := &domain.Budget{
		Code: "ORC", Description: "Mundo", State: "MG", Banks: []domain.BankRef{mg08},
		BDI: dec("25"), BDIMode: mode, Rounding: domain.BudgetTruncate,
		Items: []domain.BudgetNode{
			stage("Fundação",
				line(domain.NodeComposition, "MYBASE", "OUTER", "2"),
				stage("Sub", line(domain.NodeComposition, "SINAPI", "BC1", "4"))),
			stage("Acabamento",
				line(domain.NodeComposition, "SINAPI", "BC2", "1"),
				line(domain.NodeResource, "SINAPI", "R1", "10")),
		},
	}
	b.AssignIDs()
	return b
}

// abcKey names an ABC input for a comparison: bank:kind:code[:idle].
func abcKey(in domain.ABCInput) string {
	k := in.Ref.Name + ":" + string(in.Kind) + ":" + in.Code
	if in.Idle {
		k += ":idle"
	}
	return k
}

func quantities(items []domain.ABCInput) map[string]string {
	out := map[string]string{}
	for _, in := range items {
		out[abcKey(in)] = in.Quantity.String() + " × " + in.UnitPrice.String() + " = " + in.Total.String()
	}
	return out
}

// TestExplode: every line down to its leaves.
//
//	OUTER per unit: 1.5 MID + 1 R1
//	  MID  = 2 INNER + 1 BC1 → INNER 3, BC1 1.5
//	  INNER 3 → OR1 9, R2 1.5
//	  BC1 1.5 (structure) → R1 3, BC2 0.75 (no structure: a leaf)
//	  → OR1 9, R2 1.5, R1 4, BC2 0.75
//	line OUTER × 2 → OR1 18, R2 3, R1 8, BC2 1.5
//	line BC1 × 4   → R1 8, BC2 2
//	line BC2 × 1   → BC2 1
//	line R1 × 10   → R1 10
//	sum: R1 26 × 10 = 260; BC2 4.5 × 30 = 135; OR1 18 × 5 = 90; R2 3 × 20 = 60
func TestExplode(t *testing.T) {
	items, err := domain.NewBudgetPricer(worldSource()).Explode(worldBudget(domain.BDIOnUnitPrice))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"SINAPI:resource:R1":     "26 × 10 = 260",
		"SINAPI:composition:BC2": "4.5 × 30 = 135",
		"MYBASE:resource:OR1":    "18 × 5 = 90",
		"SINAPI:resource:R2":     "3 × 20 = 60",
	}
	if diff := cmp.Diff(want, quantities(items)); diff != "" {
		t.Errorf("exploded (-want +got):\n%s", diff)
	}
	// Desonerado: R2 18, BC2 28.
	b := worldBudget(domain.BDIOnUnitPrice)
	b.Desonerado = true
	items, _ = domain.NewBudgetPricer(worldSource()).Explode(b)
	if got := quantities(items); got["SINAPI:resource:R2"] != "3 × 18 = 54" || got["SINAPI:composition:BC2"] != "4.5 × 28 = 126" {
		t.Errorf("desonerado: %v", got)
	}
}

// TestExplodeStructureOrNot: a bank composition is opened through its
// structure when it was imported, and stays whole otherwise.
func TestExplodeStructureOrNot(t *testing.T) {
	src := worldSource()
	b := worldBudget(domain.BDIOnUnitPrice)
	b.Items = []domain.BudgetNode{line(domain.NodeComposition, "SINAPI", "BC1", "3")}
	items, err := domain.NewBudgetPricer(src).Explode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"SINAPI:resource:R1": "6 × 10 = 60", "SINAPI:composition:BC2": "1.5 × 30 = 45"}
	if diff := cmp.Diff(want, quantities(items)); diff != "" {
		t.Errorf("with structure (-want +got):\n%s", diff)
	}
	src.bankComp[mg08.EditionKey()+" BC1"].Items = nil
	items, _ = domain.NewBudgetPricer(src).Explode(b)
	want = map[string]string{"SINAPI:composition:BC1": "3 × 35 = 105"}
	if diff := cmp.Diff(want, quantities(items)); diff != "" {
		t.Errorf("without structure (-want +got):\n%s", diff)
	}
}

// TestExplodeSicroModel: in a SICRO-model own composition, equipment and
// labour are team hours per hour: divided by the team production, and
// equipment is split into productive and idle hours.
//
//	S1: team production 4; E1 2 at utilisation 0.75; R2 1 (labour); R1 3
//	E1 productive 2 × 0.75 / 4 = 0.375 h × 100 = 37.5
//	E1 idle       2 × 0.25 / 4 = 0.125 h × 40  = 5
//	R2            1 / 4        = 0.25 h  × 20  = 5
//	R1            3                      × 10  = 30
func TestExplodeSicroModel(t *testing.T) {
	src := worldSource()
	src.ownComp["S1"] = &domain.Composition{ID: "id-S1", Code: "S1", State: "MG", IsSicro: true,
		TeamProduction: dec("4"), Rounding: domain.Truncate4, Banks: []domain.BankRef{mg08},
		Items: []domain.Item{
			{Bank: "SINAPI", Code: "E1", Kind: domain.KindResource, Quantity: dec("2"), Utilization: decimal.NewNullDecimal(dec("0.75"))},
			item("SINAPI", "R2", domain.KindResource, "1"),
			item("SINAPI", "R1", domain.KindResource, "3"),
		}}
	b := worldBudget(domain.BDIOnUnitPrice)
	b.Items = []domain.BudgetNode{line(domain.NodeComposition, "MYBASE", "S1", "1")}
	items, err := domain.NewBudgetPricer(src).Explode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"SINAPI:resource:E1":      "0.375 × 100 = 37.5",
		"SINAPI:resource:E1:idle": "0.125 × 40 = 5",
		"SINAPI:resource:R2":      "0.25 × 20 = 5",
		"SINAPI:resource:R1":      "3 × 10 = 30",
	}
	if diff := cmp.Diff(want, quantities(items)); diff != "" {
		t.Errorf("SICRO model (-want +got):\n%s", diff)
	}
}

// TestExplodeMissing: a line whose record has gone is a zero-priced leaf
// marked missing, not an error.
func TestExplodeMissing(t *testing.T) {
	src := worldSource()
	b := worldBudget(domain.BDIOnUnitPrice)
	b.Items = []domain.BudgetNode{
		line(domain.NodeComposition, "SINAPI", "GONE", "1"),
		line(domain.NodeResource, "MYBASE", "GONE2", "2"),
	}
	items, err := domain.NewBudgetPricer(src).Explode(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 2 || !items[0].Missing || !items[1].Missing || !items[0].Total.IsZero() {
		t.Errorf("missing leaves: %+v", items)
	}
	syn, err := domain.NewBudgetPricer(src).Synthetic(b)
	if err != nil {
		t.Fatal(err)
	}
	if !syn.Rows[0].Missing || !syn.Total.IsZero() {
		t.Errorf("missing line: %+v", syn.Rows[0])
	}
	// The report lists both lines with why; its totals are incomplete.
	if len(syn.Missing) != 2 || !syn.Incomplete() || syn.Missing[0].NodeID != b.Items[0].ID || syn.Missing[0].Number != "1" ||
		!strings.HasPrefix(syn.Missing[0].Reason, "composition GONE does not exist in SINAPI") ||
		syn.Missing[1].Reason != "own resource GONE2 no longer exists" {
		t.Errorf("synthetic missing list: %+v", syn.Missing)
	}
	abc, err := domain.NewBudgetPricer(src).ABC(b, domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(abc.Missing) != 2 || !abc.Incomplete() || abc.Missing[0].Reason == "" || abc.Missing[1].Reason == "" {
		t.Errorf("ABC missing list: %+v", abc.Missing)
	}
	an, err := domain.NewBudgetPricer(src).Analytic(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Missing) != 2 || !an.Incomplete() {
		t.Errorf("analytic missing list: %+v", an.Missing)
	}
	pb, err := domain.NewBudgetPricer(src).Price(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(pb.Missing) != 2 || !pb.Incomplete() {
		t.Errorf("priced budget missing list: %+v", pb.Missing)
	}
}

// TestBudgetPricerMemoizes: each record is looked up once per
// BudgetPricer, however many lines name it.
func TestBudgetPricerMemoizes(t *testing.T) {
	src := worldSource()
	b := worldBudget(domain.BDIOnUnitPrice)
	bp := domain.NewBudgetPricer(src)
	if _, err := bp.ABC(b, domain.ABCLimits{}); err != nil {
		t.Fatal(err)
	}
	once := src.calls
	for i := 0; i < 100; i++ {
		b.Items[0].Items = append(b.Items[0].Items, line(domain.NodeComposition, "MYBASE", "OUTER", "1"))
	}
	b.AssignIDs()
	src.calls = 0
	bp = domain.NewBudgetPricer(src)
	if _, err := bp.Synthetic(b); err != nil {
		t.Fatal(err)
	}
	if _, err := bp.Analytic(b); err != nil {
		t.Fatal(err)
	}
	if _, err := bp.ABC(b, domain.ABCLimits{}); err != nil {
		t.Fatal(err)
	}
	if src.calls != once {
		t.Errorf("100 more lines and three reports made %d look-ups, want %d (one per record)", src.calls, once)
	}
}

// TestSynthetic, BDI 25% on the unit price, truncating:
//
//	1.1   OUTER 137.50 × 1.25 = 171.875 → 171.87;  2 × 137.50 = 275.00;  2 × 171.87 = 343.74
//	1.2.1 BC1    35.00 × 1.25 = 43.75;             4 × 35    = 140.00;   4 × 43.75  = 175.00
//	2.1   BC2    30.00 × 1.25 = 37.50;             1 × 30    = 30.00;    37.50
//	2.2   R1     10.00 × 1.25 = 12.50;            10 × 10    = 100.00;   125.00
//	stage 1.2: 140.00 / 175.00; stage 1: 415.00 / 518.74; stage 2: 130.00 / 162.50
//	footer: 545.00, BDI 136.24, 681.24
//	weights (of 545): 76.15, 50.46, 25.69, 25.69, 23.85, 5.50, 18.35
func TestSynthetic(t *testing.T) {
	r, err := domain.NewBudgetPricer(worldSource()).Synthetic(worldBudget(domain.BDIOnUnitPrice))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Number, Code, Unit, Qty, Price, PriceBDI, Total, TotalBDI, Weight string
	}
	var got []row
	for _, r := range r.Rows {
		got = append(got, row{r.Number, r.Code, r.Unit, r.Quantity.String(), r.UnitPrice.String(), r.UnitPriceWithBDI.String(),
			r.Total.StringFixed(2), r.TotalWithBDI.StringFixed(2), r.Weight.StringFixed(2)})
	}
	want := []row{
		{"1", "", "", "0", "0", "0", "415.00", "518.74", "76.15"},
		{"1.1", "OUTER", "M2", "2", "137.5", "171.87", "275.00", "343.74", "50.46"},
		{"1.2", "", "", "0", "0", "0", "140.00", "175.00", "25.69"},
		{"1.2.1", "BC1", "M3", "4", "35", "43.75", "140.00", "175.00", "25.69"},
		{"2", "", "", "0", "0", "0", "130.00", "162.50", "23.85"},
		{"2.1", "BC2", "H", "1", "30", "37.5", "30.00", "37.50", "5.50"},
		{"2.2", "R1", "UN", "10", "10", "12.5", "100.00", "125.00", "18.35"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	wantTotals := domain.BudgetTotals{Total: dec("545"), BDIValue: dec("136.24"), TotalWithBDI: dec("681.24")}
	if diff := cmp.Diff(wantTotals, r.BudgetTotals, decEqual); diff != "" {
		t.Errorf("footer (-want +got):\n%s", diff)
	}
	if r.Rows[1].Month != "" || r.Rows[3].Month != "08/2026" || r.Rows[0].Description != "Fundação" || r.Rows[1].Description != "Composição OUTER" {
		t.Errorf("row details: %+v / %+v", r.Rows[1], r.Rows[3])
	}

	// On the final total: rows carry no BDI; BDI = TRUNC(545 × 0.25) = 136.25.
	r, err = domain.NewBudgetPricer(worldSource()).Synthetic(worldBudget(domain.BDIOnFinalTotal))
	if err != nil {
		t.Fatal(err)
	}
	wantTotals = domain.BudgetTotals{Total: dec("545"), BDIValue: dec("136.25"), TotalWithBDI: dec("681.25")}
	if diff := cmp.Diff(wantTotals, r.BudgetTotals, decEqual); diff != "" {
		t.Errorf("final total footer (-want +got):\n%s", diff)
	}
	if x := r.Rows[1]; !x.UnitPriceWithBDI.Equal(x.UnitPrice) || !x.TotalWithBDI.Equal(x.Total) || !r.Rows[0].TotalWithBDI.Equal(dec("415")) {
		t.Errorf("final total mode rows carry BDI: %+v", x)
	}
}

// TestAnalytic: each composition line opened, own compositions through
// their priced items, bank compositions through their structure, and the
// summaries by category.
func TestAnalytic(t *testing.T) {
	r, err := domain.NewBudgetPricer(worldSource()).Analytic(worldBudget(domain.BDIOnUnitPrice))
	if err != nil {
		t.Fatal(err)
	}
	// describe flattens an item tree: "depth code coefficient × price = partial".
	var describe func(items []domain.AnalyticItem, depth string) []string
	describe = func(items []domain.AnalyticItem, depth string) []string {
		var out []string
		for _, it := range items {
			out = append(out, depth+it.Bank+" "+it.Code+" "+it.Coefficient.String()+" × "+it.UnitPrice.String()+" = "+it.Partial.String())
			out = append(out, describe(it.Items, depth+"  ")...)
		}
		return out
	}
	want := []string{
		"MYBASE MID 1.5 × 85 = 127.5",
		"  MYBASE INNER 2 × 25 = 50",
		"    MYBASE OR1 3 × 5 = 15",
		"    SINAPI R2 0.5 × 20 = 10",
		"  SINAPI BC1 1 × 35 = 35",
		"    SINAPI R1 2 × 10 = 20",
		"    SINAPI BC2 0.5 × 30 = 15",
		"SINAPI R1 1 × 10 = 10",
	}
	if diff := cmp.Diff(want, describe(r.Rows[1].Items, "")); diff != "" {
		t.Errorf("OUTER opened (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"SINAPI R1 2 × 10 = 20", "SINAPI BC2 0.5 × 30 = 15"}, describe(r.Rows[3].Items, "")); diff != "" {
		t.Errorf("BC1 opened (-want +got):\n%s", diff)
	}
	if len(r.Rows[5].Items) != 0 || len(r.Rows[6].Items) != 0 {
		t.Errorf("BC2 (no structure) and R1 (a resource) opened: %+v %+v", r.Rows[5].Items, r.Rows[6].Items)
	}
	// OUTER per unit: OR1 9 × 5 = 45 (material), R2 1.5 × 20 = 30 (labour),
	// R1 4 × 10 = 40 (material), BC2 0.75 × 30 = 22.50 (whole: services).
	wantUnit := domain.CostSummary{Labor: dec("30"), Material: dec("85"), Equipment: dec("0"), Services: dec("22.5")}
	if diff := cmp.Diff(wantUnit, r.Rows[1].UnitSummary, decEqual); diff != "" {
		t.Errorf("OUTER per unit (-want +got):\n%s", diff)
	}
	// Whole budget: R1 260 + OR1 90 material, R2 60 labour, BC2 135 services.
	wantAll := domain.CostSummary{Labor: dec("60"), Material: dec("350"), Services: dec("135")}
	if diff := cmp.Diff(wantAll, r.Summary, decEqual); diff != "" {
		t.Errorf("budget summary (-want +got):\n%s", diff)
	}
	if !r.Summary.Total().Equal(r.Total) {
		t.Errorf("summary total %s, synthetic total %s: the world's compositions round nothing away", r.Summary.Total(), r.Total)
	}
}

// TestABCOfBudget ranks the exploded world.
//
//	R1 260 (47.71%, A), BC2 135 (crosses 50%: A, 72.48), OR1 90 (B, 88.99), R2 60 (C, 100)
func TestABCOfBudget(t *testing.T) {
	r, err := domain.NewBudgetPricer(worldSource()).ABC(worldBudget(domain.BDIOnUnitPrice), domain.ABCLimits{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.Rows {
		got = append(got, row.Code+" "+row.Total.String()+" "+row.Percent.StringFixed(2)+" "+row.CumulativePercent.StringFixed(2)+" "+string(row.Class))
	}
	want := []string{"R1 260 47.71 47.71 A", "BC2 135 24.77 72.48 A", "OR1 90 16.51 88.99 B", "R2 60 11.01 100.00 C"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("curve (-want +got):\n%s", diff)
	}
	if !r.Total.Equal(dec("545")) || !r.Limits.A.Equal(dec("50")) {
		t.Errorf("total %s, limits %v", r.Total, r.Limits)
	}
	_, err = domain.NewBudgetPricer(worldSource()).ABC(worldBudget(domain.BDIOnUnitPrice), domain.ABCLimits{A: dec("80"), B: dec("50")})
	if domain.ErrorCode(err) != domain.EINVALID {
		t.Errorf("A > B: err %v, want EINVALID", err)
	}
}

func TestCategory(t *testing.T) {
	for _, tc := range []struct {
		kind        domain.ItemKind
		typ         int
		description string
		want        domain.CostCategory
	}{
		{domain.KindResource, domain.TypeLabor, "PEDREIRO (HORISTA)", domain.CategoryLabor},
		{domain.KindResource, domain.TypeMaterial, "AREIA MEDIA", domain.CategoryMaterial},
		{domain.KindResource, domain.TypeEquipment, "BETONEIRA", domain.CategoryEquipment},
		{domain.KindResource, domain.TypePermanentEquipment, "GERADOR", domain.CategoryEquipment},
		{domain.KindResource, domain.TypeTransport, "FRETE", domain.CategoryServices},
		{domain.KindResource, domain.TypeServices, "LOCAÇÃO", domain.CategoryServices},
		{domain.KindComposition, 0, "PEDREIRO COM ENCARGOS COMPLEMENTARES", domain.CategoryLabor},
		{domain.KindComposition, 0, "BETONEIRA CAPACIDADE NOMINAL DE 600 L - CHP DIURNO. AF_10/2014", domain.CategoryEquipment},
		{domain.KindComposition, 0, "BETONEIRA 600 L - CHI DIURNO. AF_10/2014", domain.CategoryEquipment},
		{domain.KindComposition, 0, "ARGAMASSA TRAÇO 1:1:6, PREPARO MECÂNICO COM BETONEIRA (CHIPS)", domain.CategoryServices},
	} {
		if got := domain.Category(tc.kind, tc.typ, tc.description); got != tc.want {
			t.Errorf("%s %d %q = %s, want %s", tc.kind, tc.typ, tc.description, got, tc.want)
		}
	}
}
