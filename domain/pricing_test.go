package domain_test

import (
	"errors"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

var dec = domain.Dec

func TestRoundingMethodApply(t *testing.T) {
	for _, tc := range []struct {
		m        domain.RoundingMethod
		in, want string
	}{
		{domain.RoundHalfUp2, "1.005", "1.01"}, // a half goes up
		{domain.RoundHalfUp2, "1.0049999", "1.00"},
		{domain.RoundHalfUp2, "0.125", "0.13"},
		{domain.RoundHalfUp2, "2.5", "2.50"},
		{domain.RoundHalfUp2, "-1.005", "-1.01"}, // halves away from zero
		{domain.RoundHalfUp2, "12.487825", "12.49"},
		{domain.Truncate2, "0.129", "0.12"},
		{domain.Truncate2, "1.005", "1.00"},
		{domain.Truncate2, "9.999999", "9.99"},
		{domain.Truncate2, "12.487825", "12.48"},
		{domain.Truncate2, "-0.129", "-0.12"}, // towards zero
		{domain.Truncate2, "7", "7"},
		{domain.Truncate4, "1.23456789", "1.2345"},
		{domain.Truncate4, "2.00005", "2.0000"},
		{domain.Truncate4, "0.00009", "0"},
		{domain.Truncate4, "12.487825", "12.4878"},
		{domain.NoRounding, "1.23456789", "1.23456789"},
		{domain.NoRounding, "12.487825", "12.487825"},
	} {
		got := tc.m.Apply(dec(tc.in))
		if !got.Equal(dec(tc.want)) {
			t.Errorf("%s.Apply(%s) = %s, want %s", tc.m.Description(), tc.in, got, tc.want)
		}
	}
	for _, m := range domain.RoundingMethods {
		if !m.Valid() {
			t.Errorf("method %d not valid", m)
		}
	}
	for _, m := range []domain.RoundingMethod{0, 5, -1} {
		if m.Valid() {
			t.Errorf("method %d valid", m)
		}
	}
	want := []domain.RoundingMethod{1, 2, 3, 4}
	if !cmp.Equal(domain.RoundingMethods, want) {
		t.Errorf("RoundingMethods = %v, want %v (the origin system's numbers)", domain.RoundingMethods, want)
	}
	if got := domain.RoundHalfUp(dec("0.00005"), 4); !got.Equal(dec("0.0001")) {
		t.Errorf("RoundHalfUp(0.00005, 4) = %s", got)
	}
}

func TestLineTotal(t *testing.T) {
	for _, tc := range []struct {
		m                 domain.RoundingMethod
		coef, price, want string
	}{
		{domain.Truncate2, "0.6505", "24.88", "16.18"},       // 16.184440
		{domain.RoundHalfUp2, "0.6505", "24.88", "16.18"},    // 16.184440
		{domain.Truncate2, "0.0175", "713.59", "12.48"},      // 12.487825
		{domain.RoundHalfUp2, "0.0175", "713.59", "12.49"},   // 12.487825
		{domain.Truncate4, "0.0175", "713.59", "12.4878"},    // 12.487825
		{domain.NoRounding, "0.0175", "713.59", "12.487825"}, // exact
		{domain.Truncate2, "1.5", "0.333", "0.49"},           // 0.4995
		{domain.RoundHalfUp2, "1.5", "0.333", "0.50"},        // 0.4995
		{domain.Truncate2, "0.0000001", "99999.99", "0.00"},  // 0.009999999
	} {
		if got := domain.LineTotal(tc.m, dec(tc.coef), dec(tc.price)); !got.Equal(dec(tc.want)) {
			t.Errorf("LineTotal(%d, %s, %s) = %s, want %s", tc.m, tc.coef, tc.price, got, tc.want)
		}
	}
}

func item(bank, code string, kind domain.ItemKind, q string) domain.Item {
	return domain.Item{Bank: bank, Code: code, Kind: kind, Quantity: dec(q)}
}

func TestSetItem(t *testing.T) {
	var c domain.Composition
	c.SetItem(item("SINAPI", "88309", domain.KindComposition, "1.1152"))
	c.SetItem(item("SINAPI", "34586", domain.KindResource, "15.37"))
	// The same line again (a retried request) sets the quantity, in place.
	again := item("SINAPI", "88309", domain.KindComposition, "2")
	again.Utilization = decimal.NewNullDecimal(dec("0.5"))
	c.SetItem(again)
	// Same code, other kind or other bank: other lines.
	c.SetItem(item("SINAPI", "88309", domain.KindResource, "3"))
	c.SetItem(item("MYBASE", "88309", domain.KindComposition, "4"))
	want := []domain.Item{
		again,
		item("SINAPI", "34586", domain.KindResource, "15.37"),
		item("SINAPI", "88309", domain.KindResource, "3"),
		item("MYBASE", "88309", domain.KindComposition, "4"),
	}
	if diff := cmp.Diff(want, c.Items, decEqual); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if !c.Items[3].IsOwn() || c.Items[0].IsOwn() {
		t.Error("IsOwn is wrong")
	}
}

func TestRemoveItem(t *testing.T) {
	var c domain.Composition
	a := item("SINAPI", "1", domain.KindResource, "1")
	b := item("SINAPI", "2", domain.KindResource, "2")
	d := item("SINAPI", "3", domain.KindResource, "3")
	for _, it := range []domain.Item{a, b, d} {
		c.SetItem(it)
	}
	before := c.Clone()
	// The quantity does not matter: the line is bank, code and kind.
	if !c.RemoveItem(item("SINAPI", "2", domain.KindResource, "99")) {
		t.Fatal("RemoveItem found no line")
	}
	if c.RemoveItem(b) {
		t.Error("RemoveItem removed a line twice")
	}
	if c.RemoveItem(item("SINAPI", "1", domain.KindComposition, "1")) {
		t.Error("RemoveItem removed a line of another kind")
	}
	if diff := cmp.Diff([]domain.Item{a, d}, c.Items, decEqual); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]domain.Item{a, b, d}, before.Items, decEqual); diff != "" {
		t.Errorf("the clone changed (-want +got):\n%s", diff)
	}
}

func TestSetBank(t *testing.T) {
	var c domain.Composition
	c.SetBank(domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"})
	c.SetBank(domain.BankRef{Name: "SICRO3", State: "AL", Month: "01/2024"})
	c.SetBank(domain.BankRef{Name: "CPOS", State: "SP", Month: "01/2025"})
	c.SetBank(domain.BankRef{Name: "SINAPI", State: "MG", Month: "09/2026", Report: true}) // replaces
	want := []domain.BankRef{
		{Name: "CPOS", State: "SP", Month: "01/2025"},
		{Name: "SICRO3", State: "AL", Month: "01/2024"},
		{Name: "SINAPI", State: "MG", Month: "09/2026", Report: true},
	}
	if diff := cmp.Diff(want, c.Banks); diff != "" {
		t.Errorf("banks (-want +got):\n%s", diff)
	}
	if b, ok := c.Bank("SINAPI"); !ok || b.Month != "09/2026" {
		t.Errorf("Bank(SINAPI) = %+v, %v", b, ok)
	}
	if _, ok := c.Bank("ORSE"); ok {
		t.Error("Bank(ORSE) found")
	}
	if got := want[2].EditionKey(); got != "SINAPI/MG/2026-09/" {
		t.Errorf("EditionKey = %q", got)
	}
}

func validComposition() *domain.Composition {
	return &domain.Composition{
		Code: "C-1", Description: "Alvenaria", Unit: "M2", State: "MG", Type: "PARE",
		Rounding: domain.Truncate2,
		Banks:    []domain.BankRef{{Name: "SINAPI", State: "MG", Month: "08/2026"}},
		Items: []domain.Item{
			item("SINAPI", "88309", domain.KindComposition, "1.1152"),
			item("MYBASE", "R-1", domain.KindResource, "0.0000001"),
		},
	}
}

func fields(err error) []string {
	var out []string
	for _, f := range domain.ErrorFields(err) {
		out = append(out, f.Field)
	}
	return out
}

func TestCompositionValidate(t *testing.T) {
	if err := validComposition().Validate(); err != nil {
		t.Fatalf("valid composition: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(c *domain.Composition)
		want   []string
	}{
		{"no code", func(c *domain.Composition) { c.Code = "" }, []string{"/code"}},
		{"code with a space at the end", func(c *domain.Composition) { c.Code = "C-1 " }, []string{"/code"}},
		{"code with a control character", func(c *domain.Composition) { c.Code = "C\n1" }, []string{"/code"}},
		{"no description", func(c *domain.Composition) { c.Description = "  " }, []string{"/description"}},
		{"no unit", func(c *domain.Composition) { c.Unit = "" }, []string{"/unit"}},
		{"bad state", func(c *domain.Composition) { c.State = "mg" }, []string{"/state"}},
		{"bad class", func(c *domain.Composition) { c.Type = "WALL" }, []string{"/type"}},
		{"no rounding", func(c *domain.Composition) { c.Rounding = 0 }, []string{"/rounding_type"}},
		{"bad bank name", func(c *domain.Composition) { c.Banks[0].Name = "MYBASE" }, []string{"/banks/0/name"}},
		{"bad bank state and month", func(c *domain.Composition) { c.Banks[0].State, c.Banks[0].Month = "XX", "2026-08" },
			[]string{"/banks/0/location", "/banks/0/version"}},
		{"zero quantity", func(c *domain.Composition) { c.Items[0].Quantity = dec("0") }, []string{"/items/0/quantity"}},
		{"8 places", func(c *domain.Composition) { c.Items[1].Quantity = dec("0.00000001") }, []string{"/items/1/quantity"}},
		{"no bank, no code, no kind", func(c *domain.Composition) { c.Items[1] = domain.Item{Quantity: dec("1")} },
			[]string{"/items/1/bank", "/items/1/code", "/items/1/resource"}},
		{"utilization above 1", func(c *domain.Composition) {
			c.Items[0].Utilization = decimal.NewNullDecimal(dec("1.01"))
		}, []string{"/items/0/utilization"}},
		{"SICRO with a negative team production", func(c *domain.Composition) {
			c.IsSicro, c.TeamProduction, c.FIC, c.LaborAddition = true, dec("-1"), dec("-0.1"), dec("-1")
		}, []string{"/team_production", "/fic", "/adc_labor"}},
		{"SINAPI model with negative SICRO figures", func(c *domain.Composition) {
			c.IsSicro, c.TeamProduction, c.FIC, c.LaborAddition = false, dec("-1"), dec("-0.1"), dec("-1")
		}, []string{"/team_production", "/fic", "/adc_labor"}},
	} {
		c := validComposition()
		tc.change(c)
		err := c.Validate()
		if domain.ErrorCode(err) != domain.EINVALID {
			t.Errorf("%s: code %q, want %q (err %v)", tc.name, domain.ErrorCode(err), domain.EINVALID, err)
			continue
		}
		if diff := cmp.Diff(tc.want, fields(err)); diff != "" {
			t.Errorf("%s: fields (-want +got):\n%s", tc.name, diff)
		}
	}

	// Every bad field at once is named in one answer, in field order.
	c := &domain.Composition{
		State: "XX", IsSicro: true, TeamProduction: dec("-1"),
		Banks: []domain.BankRef{{}},
		Items: []domain.Item{{Bank: "SINAPI", Code: "1", Kind: domain.KindResource}},
	}
	want := []string{"/code", "/description", "/unit", "/state", "/rounding_type", "/team_production",
		"/banks/0/name", "/banks/0/location", "/banks/0/version", "/items/0/quantity"}
	if diff := cmp.Diff(want, fields(c.Validate())); diff != "" {
		t.Errorf("all at once (-want +got):\n%s", diff)
	}
}

// fakeSource is a PriceSource over maps. Bank records are keyed by
// edition key and code; err, when set, is returned for every look-up.
type fakeSource struct {
	ownRes   map[string]*domain.Resource
	ownComp  map[string]*domain.Composition
	bankRes  map[string]*domain.BankResource
	bankComp map[string]*domain.BankComposition
	err      error
}

func notFound(what, code string) error {
	return domain.Errorf(domain.ENOTFOUND, "no %s %s", what, code)
}

func (s *fakeSource) OwnResource(code string) (*domain.Resource, error) {
	if s.err != nil {
		return nil, s.err
	}
	if r, ok := s.ownRes[code]; ok {
		return r, nil
	}
	return nil, notFound("resource", code)
}

func (s *fakeSource) OwnComposition(code, state string) (*domain.Composition, error) {
	if s.err != nil {
		return nil, s.err
	}
	if c, ok := s.ownComp[code]; ok && c.State == state {
		return c, nil
	}
	return nil, notFound("composition", code)
}

func (s *fakeSource) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	if s.err != nil {
		return nil, s.err
	}
	if r, ok := s.bankRes[ref.EditionKey()+" "+code]; ok {
		return r, nil
	}
	return nil, notFound("bank resource", code)
}

func (s *fakeSource) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	if s.err != nil {
		return nil, s.err
	}
	if c, ok := s.bankComp[ref.EditionKey()+" "+code]; ok {
		return c, nil
	}
	return nil, notFound("bank composition", code)
}

func up(nd, d string) domain.UnitPrice { return domain.UnitPrice{PND: dec(nd), PD: dec(d)} }

// TestNestedOwnCompositions: an own composition's price is the unit price
// of its line one level up, and each level truncates its own lines.
//
//	SUB  = 1.333 × AREIA      ND 1.333 × 10.555 = 14.069815 → 14.06
//	                          D  1.333 × 9.999  = 13.328667 → 13.32
//	MID  = 3 × SUB            ND 3 × 14.06 = 42.18   (not 3 × 14.069815 = 42.209445 → 42.20)
//	                          D  3 × 13.32 = 39.96   (not 39.986001 → 39.98)
//	TOP  = 0.333 × MID        ND 0.333 × 42.18 = 14.04594 → 14.04 (exact all the way: 14.0557… → 14.05)
//	                          D  0.333 × 39.96 = 13.30668 → 13.30
func TestNestedOwnCompositions(t *testing.T) {
	own := func(id, code string, it domain.Item) *domain.Composition {
		return &domain.Composition{ID: id, Code: code, Description: "composição " + code, Unit: "M2", Type: "PARE",
			State: "MG", Rounding: domain.Truncate2, Items: []domain.Item{it}}
	}
	src := &fakeSource{
		ownRes: map[string]*domain.Resource{"AREIA": {Code: "AREIA", Description: "Areia", Unit: "M3", Type: domain.TypeMaterial,
			Locals: map[string]domain.PriceLine{
				"MG": {PND: dec("10.555"), PD: dec("9.999"), PNDI: dec("10.555"), PDI: dec("9.999")},
				"SP": {PND: dec("99"), PD: dec("99")},
			}}},
		ownComp: map[string]*domain.Composition{
			"SUB": own("sub", "SUB", item("MYBASE", "AREIA", domain.KindResource, "1.333")),
			"MID": own("mid", "MID", item("MYBASE", "SUB", domain.KindComposition, "3")),
		},
	}
	top := own("", "TOP", item("MYBASE", "MID", domain.KindComposition, "0.333"))
	p := domain.NewPricer(src)
	pc, err := p.Price(top)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(up("14.04", "13.30"), pc.Prices.Unit(), decEqual); diff != "" {
		t.Errorf("TOP (-want +got):\n%s", diff)
	}
	it := pc.Items[0]
	if it.Description != "composição MID" || it.Unit != "M2" || it.Type != "PARE" || it.Missing {
		t.Errorf("TOP's item = %+v", it)
	}
	if diff := cmp.Diff(up("42.18", "39.96"), it.UnitPrice, decEqual); diff != "" {
		t.Errorf("MID as TOP's unit price (-want +got):\n%s", diff)
	}
	// The same Pricer answers SUB from what it computed.
	sub, err := p.Price(src.ownComp["SUB"])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(up("14.06", "13.32"), sub.Prices.Unit(), decEqual); diff != "" {
		t.Errorf("SUB (-want +got):\n%s", diff)
	}
	if r := sub.Items[0]; r.ResourceType != domain.TypeMaterial || r.Type != "4" || !r.UnitPrice.PND.Equal(dec("10.555")) {
		t.Errorf("SUB's item = %+v", r)
	}
}

func TestPriceCycle(t *testing.T) {
	a := &domain.Composition{ID: "a", Code: "A", State: "MG", Rounding: domain.Truncate2,
		Items: []domain.Item{item("MYBASE", "B", domain.KindComposition, "1")}}
	b := &domain.Composition{ID: "b", Code: "B", State: "MG", Rounding: domain.Truncate2,
		Items: []domain.Item{item("MYBASE", "A", domain.KindComposition, "1")}}
	self := &domain.Composition{ID: "s", Code: "S", State: "MG", Rounding: domain.Truncate2,
		Items: []domain.Item{item("MYBASE", "S", domain.KindComposition, "1")}}
	src := &fakeSource{ownComp: map[string]*domain.Composition{"A": a, "B": b, "S": self}}
	for _, c := range []*domain.Composition{a, self} {
		_, err := domain.NewPricer(src).Price(c)
		if domain.ErrorCode(err) != domain.ECONFLICT {
			t.Errorf("%s: err = %v, want ECONFLICT", c.Code, err)
		}
	}
}

func TestPriceMissing(t *testing.T) {
	sinapi := domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}
	src := &fakeSource{
		bankRes: map[string]*domain.BankResource{
			sinapi.EditionKey() + " 34586": {Code: "34586", Unit: "UN", Type: domain.TypeMaterial,
				Prices: domain.PriceLine{PND: dec("2.62"), PD: dec("2.62")}},
		},
	}
	c := &domain.Composition{Code: "X", State: "MG", Rounding: domain.Truncate2, Banks: []domain.BankRef{sinapi},
		Items: []domain.Item{
			item("SINAPI", "34586", domain.KindResource, "15.37"), // 40.2694 → 40.26
			item("SINAPI", "99999", domain.KindResource, "1"),     // no such resource
			item("SINAPI", "88309", domain.KindComposition, "1"),  // no such composition
			item("ORSE", "00001", domain.KindResource, "1"),       // bank not attached
			item("MYBASE", "GONE", domain.KindResource, "1"),      // own resource deleted
			item("MYBASE", "GONE", domain.KindComposition, "1"),   // own composition deleted
		}}
	pc, err := domain.NewPricer(src).Price(c)
	if err != nil {
		t.Fatal(err)
	}
	var missing []bool
	for _, it := range pc.Items {
		missing = append(missing, it.Missing)
		if it.Missing && (!it.Total.PND.IsZero() || !it.Total.PD.IsZero()) {
			t.Errorf("missing item %s priced %v", it.Code, it.Total)
		}
	}
	if diff := cmp.Diff([]bool{false, true, true, true, true, true}, missing); diff != "" {
		t.Errorf("Missing (-want +got):\n%s", diff)
	}
	// The composition lists each missing item with why: it is incomplete.
	wantMissing := []domain.MissingPrice{
		{Bank: "SINAPI", Code: "99999", Kind: domain.KindResource, Reason: "resource 99999 does not exist in SINAPI MG 08/2026"},
		{Bank: "SINAPI", Code: "88309", Kind: domain.KindComposition, Reason: "composition 88309 does not exist in SINAPI MG 08/2026"},
		{Bank: "ORSE", Code: "00001", Kind: domain.KindResource, Reason: "bank ORSE is not attached to the composition"},
		{Bank: "MYBASE", Code: "GONE", Kind: domain.KindResource, Reason: "own resource GONE no longer exists"},
		{Bank: "MYBASE", Code: "GONE", Kind: domain.KindComposition, Reason: "no own composition GONE exists in MG"},
	}
	for i := range wantMissing {
		wantMissing[i].Unpriced = [2]bool{true, true} // gone: no price in either regime
	}
	if diff := cmp.Diff(wantMissing, pc.Missing); diff != "" || !pc.Incomplete() {
		t.Errorf("Missing list (-want +got):\n%s", diff)
	}
	// One level up, the missing items of an own composition item are listed
	// again, saying through which composition; an own resource without a
	// price in the state is missing too.
	c.ID, c.Code = "c1", "SUB"
	src.ownComp = map[string]*domain.Composition{"SUB": c}
	src.ownRes = map[string]*domain.Resource{"R": {Code: "R", Type: domain.TypeMaterial,
		Locals: map[string]domain.PriceLine{"SP": {PND: dec("1"), PD: dec("1")}}}}
	top := &domain.Composition{Code: "TOP", State: "MG", Rounding: domain.Truncate2, Items: []domain.Item{
		item("MYBASE", "SUB", domain.KindComposition, "1"),
		item("MYBASE", "R", domain.KindResource, "1"),
	}}
	tp, err := domain.NewPricer(src).Price(top)
	if err != nil {
		t.Fatal(err)
	}
	if len(tp.Missing) != 6 || tp.Missing[0].Reason != "in own composition SUB (MG): resource 99999 does not exist in SINAPI MG 08/2026" ||
		tp.Missing[5] != (domain.MissingPrice{Bank: "MYBASE", Code: "R", Kind: domain.KindResource, Reason: "own resource R has no price for MG",
			Unpriced: [2]bool{true, true}}) {
		t.Errorf("nested missing list: %+v", tp.Missing)
	}
	if tp.Items[0].Missing || !tp.Items[1].Missing || !tp.Items[1].Total.PND.IsZero() {
		t.Errorf("items: %+v", tp.Items)
	}
	if diff := cmp.Diff(up("40.26", "40.26"), pc.Prices.Unit(), decEqual); diff != "" {
		t.Errorf("price (-want +got):\n%s", diff)
	}

	// Any other failure of the source is returned, not hidden as missing.
	disk := errors.New("disk on fire")
	if _, err := domain.NewPricer(&fakeSource{err: disk}).Price(c); !errors.Is(err, disk) {
		t.Errorf("err = %v, want the source's error", err)
	}
}

// TestSicroModel works one SICRO-model composition by hand (Truncate4, AL,
// labour addition 15.18 %, team production 12.5 units/h, FIC 0.0123).
// trunc₄ is truncation to 4 places.
//
// Items and prices (não desonerado / desonerado):
//
//	E1  equipment, q 2, utilization 0.8  CHP 100.1234 / 95.4321, CHI 40.5678 / 38.9876
//	P1  labour,    q 3                   20.5555 / 18.3333
//	M1  material,  q 1.5                 10.1010 / 10.1010
//	C1  composition (auxiliary), q 0.05  112.02 / 110.55
//	T1  transport (type 13), q 0.3       2.3456 / 2.3456
//	S1  services (type 5, other), q 0.7  3.3333 / 3.3333
//
// Não desonerado:
//
//	A    = trunc₄(2 × (0.8 × 100.1234 + 0.2 × 40.5678)) = trunc₄(2 × (80.09872 + 8.11356))
//	     = trunc₄(2 × 88.21228) = trunc₄(176.42456) = 176.4245
//	Aidle= trunc₄(2 × 0.2 × 40.5678) = trunc₄(16.22712) = 16.2271
//	B    = trunc₄(3 × 20.5555) = 61.6665
//	ADD  = trunc₄(61.6665 × 15.18 / 100) = trunc₄(936.09747 / 100) = trunc₄(9.3609747) = 9.3609
//	CHE  = 176.4245 + 61.6665 + 9.3609 = 247.4519
//	CUE  = trunc₄(247.4519 / 12.5) = trunc₄(19.796152) = 19.7961
//	FIC  = trunc₄(19.7961 × 0.0123) = trunc₄(0.24349203) = 0.2434
//	C    = trunc₄(1.5 × 10.1010) = 15.1515
//	D    = trunc₄(0.05 × 112.02) = 5.601
//	E    = trunc₄(0.3 × 2.3456) = trunc₄(0.70368) = 0.7036
//	O    = trunc₄(0.7 × 3.3333) = trunc₄(2.33331) = 2.3333
//	PND  = trunc₄(19.7961 + 0.2434 + 15.1515 + 5.601 + 0.7036 + 2.3333) = 43.8289
//
// Desonerado:
//
//	A    = trunc₄(2 × (0.8 × 95.4321 + 0.2 × 38.9876)) = trunc₄(2 × (76.34568 + 7.79752))
//	     = trunc₄(2 × 84.1432) = 168.2864
//	Aidle= trunc₄(2 × 0.2 × 38.9876) = trunc₄(15.59504) = 15.595
//	B    = trunc₄(3 × 18.3333) = 54.9999
//	ADD  = trunc₄(54.9999 × 15.18 / 100) = trunc₄(8.34898482) = 8.3489
//	CHE  = 168.2864 + 54.9999 + 8.3489 = 231.6352
//	CUE  = trunc₄(231.6352 / 12.5) = trunc₄(18.530816) = 18.5308
//	FIC  = trunc₄(18.5308 × 0.0123) = trunc₄(0.22792884) = 0.2279
//	C    = 15.1515 (CUMO is reported once, from the não desonerado prices)
//	D    = trunc₄(0.05 × 110.55) = trunc₄(5.5275) = 5.5275
//	E    = 0.7036, O = 2.3333
//	PD   = trunc₄(18.5308 + 0.2279 + 15.1515 + 5.5275 + 0.7036 + 2.3333) = 42.4746
func TestSicroModel(t *testing.T) {
	sicro := domain.BankRef{Name: "SICRO3", State: "AL", Month: "01/2024"}
	key := sicro.EditionKey() + " "
	res := func(code string, typ int, pnd, pd, pndi, pdi string) *domain.BankResource {
		return &domain.BankResource{Code: code, Description: code, Unit: "h", Type: typ,
			Prices: domain.PriceLine{PND: dec(pnd), PD: dec(pd), PNDI: dec(pndi), PDI: dec(pdi)}}
	}
	src := &fakeSource{
		bankRes: map[string]*domain.BankResource{
			key + "E1": res("E1", domain.TypeEquipment, "100.1234", "95.4321", "40.5678", "38.9876"),
			key + "P1": res("P1", domain.TypeLabor, "20.5555", "18.3333", "20.5555", "18.3333"),
			key + "M1": res("M1", domain.TypeMaterial, "10.1010", "10.1010", "10.1010", "10.1010"),
			key + "T1": res("T1", domain.TypeTransport, "2.3456", "2.3456", "2.3456", "2.3456"),
			key + "S1": res("S1", domain.TypeServices, "3.3333", "3.3333", "3.3333", "3.3333"),
		},
		bankComp: map[string]*domain.BankComposition{
			key + "C1": {Code: "C1", Unit: "m³", Cost: up("112.02", "110.55")},
		},
	}
	e1 := item("SICRO3", "E1", domain.KindResource, "2")
	e1.Utilization = decimal.NewNullDecimal(dec("0.8"))
	c := &domain.Composition{
		Code: "S-1", Description: "Serviço SICRO", Unit: "m³", State: "AL", IsSicro: true,
		Rounding:       domain.DefaultRounding(true),
		TeamProduction: dec("12.5"), FIC: dec("0.0123"), LaborAddition: dec("15.18"),
		Banks: []domain.BankRef{sicro},
		Items: []domain.Item{
			e1,
			item("SICRO3", "P1", domain.KindResource, "3"),
			item("SICRO3", "M1", domain.KindResource, "1.5"),
			item("SICRO3", "C1", domain.KindComposition, "0.05"),
			item("SICRO3", "T1", domain.KindResource, "0.3"),
			item("SICRO3", "S1", domain.KindResource, "0.7"),
		},
	}
	if c.Rounding != domain.Truncate4 {
		t.Fatalf("default rounding of a SICRO-model composition = %d, want Truncate4", c.Rounding)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	pc, err := domain.NewPricer(src).Price(c)
	if err != nil {
		t.Fatal(err)
	}
	want := domain.Prices{
		PND: dec("43.8289"), PD: dec("42.4746"),
		ChDeEq: dec("176.4245"), ChdDeEq: dec("168.2864"),
		ChiDeEq: dec("16.2271"), ChdiDeEq: dec("15.595"),
		ChDaMo: dec("61.6665"), ChdDaMo: dec("54.9999"),
		ChIncidencia: dec("9.3609"), LaborAdditionD: dec("8.3489"),
		CHE: dec("247.4519"), CHDE: dec("231.6352"),
		CUE: dec("19.7961"), CUED: dec("18.5308"),
		FICCost: dec("0.2434"), FICCostD: dec("0.2279"),
		CUMO: dec("15.1515"),
		CCA:  dec("5.601"), CCAD: dec("5.5275"),
		CTF: dec("0.7036"), CTFD: dec("0.7036"),
		CUOI: dec("2.3333"), CUOID: dec("2.3333"),
	}
	if diff := cmp.Diff(want, pc.Prices, decEqual); diff != "" {
		t.Errorf("prices (-want +got):\n%s", diff)
	}
	type line struct {
		Code, Section string
		Total         domain.UnitPrice
	}
	wantLines := []line{
		{"E1", domain.SectionEquipment, up("176.4245", "168.2864")},
		{"P1", domain.SectionLabor, up("61.6665", "54.9999")},
		{"M1", domain.SectionMaterial, up("15.1515", "15.1515")},
		{"C1", domain.SectionAuxiliary, up("5.601", "5.5275")},
		{"T1", domain.SectionTransport, up("0.7036", "0.7036")},
		{"S1", domain.SectionOther, up("2.3333", "2.3333")},
	}
	var got []line
	for _, it := range pc.Items {
		got = append(got, line{it.Code, it.Section, it.Total})
	}
	if diff := cmp.Diff(wantLines, got, decEqual); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}

	// The composition's rounding method cuts only the unit cost:
	// Truncate2 gives 43.82 / 42.47 with every other figure unchanged.
	c2 := c.Clone()
	c2.Rounding = domain.Truncate2
	pc2, err := domain.NewPricer(src).Price(c2)
	if err != nil {
		t.Fatal(err)
	}
	want.PND, want.PD = dec("43.82"), dec("42.47")
	if diff := cmp.Diff(want, pc2.Prices, decEqual); diff != "" {
		t.Errorf("prices with Truncate2 (-want +got):\n%s", diff)
	}
}

func TestQuantityPaddedWithZerosIsValid(t *testing.T) {
	it := domain.Item{Bank: "SINAPI", Code: "1", Kind: domain.KindResource, Quantity: domain.Dec("1.50000000")}
	if err := it.Validate(""); err != nil {
		t.Errorf("1.50000000 refused: %v", err)
	}
	it.Quantity = domain.Dec("1.00000001")
	if err := it.Validate(""); err == nil {
		t.Error("8 significant decimal places accepted")
	}
}
