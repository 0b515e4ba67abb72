package domain_test

// The acceptance test of the core: the five real SINAPI MG 08/2026
// compositions of testdata/sinapi-mg-202608 (see testdata/README.md),
// rebuilt from their published structure as domain.Compositions and priced
// by domain.Pricer, give back Caixa's published totals in both regimes.

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

var decEqual = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

// mgRef is the edition the five compositions are priced from.
var mgRef = domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}

// mgData is the MG 08/2026 subset, parsed from testdata.
type mgData struct {
	resources    map[string]*domain.BankResource
	compositions map[string]*domain.BankComposition // with Items where the structure is known
	analytic     []string                           // codes of the compositions with a structure, in file order
}

// loadMG parses the three files of testdata/sinapi-mg-202608: the price
// files (one row per code and regime; desonerado False = não desonerado) and
// the structure (coefficients decoded as exact JSON numbers).
func loadMG(t testing.TB) *mgData {
	t.Helper()
	dir := filepath.Join("testdata", "sinapi-mg-202608")
	d := &mgData{resources: map[string]*domain.BankResource{}, compositions: map[string]*domain.BankComposition{}}
	readPrices := func(name string, row func(code, desc, unit string, reg domain.Regime, price decimal.Decimal)) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := recs[0]; len(got) != 6 || got[0] != "codigo" || got[3] != "preco_mediano" || got[5] != "desonerado" {
			t.Fatalf("%s: unexpected header %q", name, got)
		}
		for _, rec := range recs[1:] {
			price, err := decimal.NewFromString(rec[3])
			if err != nil {
				t.Fatalf("%s: price %q: %v", name, rec[3], err)
			}
			reg := domain.NaoDesonerado
			switch rec[5] {
			case "True":
				reg = domain.Desonerado
			case "False":
			default:
				t.Fatalf("%s: desonerado %q", name, rec[5])
			}
			if rec[4] != "2026-08" {
				t.Fatalf("%s: month %q", name, rec[4])
			}
			row(rec[0], rec[1], rec[2], reg, price)
		}
	}
	readPrices("insumos_mg_subset.csv", func(code, desc, unit string, reg domain.Regime, p decimal.Decimal) {
		r := d.resources[code]
		if r == nil {
			r = &domain.BankResource{Code: code, Description: desc, Unit: unit, Type: domain.TypeMaterial}
			d.resources[code] = r
		}
		if reg == domain.Desonerado {
			r.Prices.PD, r.Prices.PDI = p, p
		} else {
			r.Prices.PND, r.Prices.PNDI = p, p
		}
	})
	readPrices("composicoes_mg_subset.csv", func(code, desc, unit string, reg domain.Regime, p decimal.Decimal) {
		c := d.compositions[code]
		if c == nil {
			c = &domain.BankComposition{Code: code, Description: desc, Unit: unit}
			d.compositions[code] = c
		}
		if reg == domain.Desonerado {
			c.Cost.PD = p
		} else {
			c.Cost.PND = p
		}
	})

	f, err := os.Open(filepath.Join(dir, "estrutura_2026-08_subset.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber() // coefficients as their exact text, never float64
	var items []struct {
		C, T, I string
		K       json.Number
	}
	if err := dec.Decode(&items); err != nil {
		t.Fatalf("estrutura: %v", err)
	}
	for _, it := range items {
		kind := map[string]domain.ItemKind{"I": domain.KindResource, "C": domain.KindComposition}[it.T]
		if kind == "" {
			t.Fatalf("estrutura: item type %q", it.T)
		}
		k, err := decimal.NewFromString(it.K.String())
		if err != nil {
			t.Fatalf("estrutura: coefficient %q: %v", it.K, err)
		}
		c := d.compositions[it.C]
		if c == nil {
			t.Fatalf("estrutura: composition %s has no price", it.C)
		}
		if len(c.Items) == 0 {
			d.analytic = append(d.analytic, it.C)
		}
		c.Items = append(c.Items, domain.StructureItem{Kind: kind, Code: it.I, Coefficient: k})
	}
	return d
}

// The test PriceSource: the MG edition's records, nothing of the company's own.
func (d *mgData) OwnResource(code string) (*domain.Resource, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no own resource %s", code)
}

func (d *mgData) OwnComposition(code, state string) (*domain.Composition, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no own composition %s", code)
}

func (d *mgData) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	if r := d.resources[code]; r != nil && ref.EditionKey() == mgRef.EditionKey() {
		return r, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no resource %s in %s", code, ref.EditionKey())
}

func (d *mgData) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	if c := d.compositions[code]; c != nil && ref.EditionKey() == mgRef.EditionKey() {
		return c, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s in %s", code, ref.EditionKey())
}

// rebuild makes an own composition with the items of the published one, as
// a user would enter it: SINAPI items, Caixa's rounding, the MG edition.
func (d *mgData) rebuild(code string, m domain.RoundingMethod) *domain.Composition {
	bc := d.compositions[code]
	c := &domain.Composition{
		Code: code, Description: bc.Description, Unit: bc.Unit, State: "MG",
		Rounding: m, Banks: []domain.BankRef{mgRef},
	}
	for _, it := range bc.Items {
		c.SetItem(domain.Item{Bank: "SINAPI", Code: it.Code, Kind: it.Kind, Quantity: it.Coefficient})
	}
	return c
}

// mgExpected are the figures of DERIVED_expected_totals_mg_202608.csv in the
// team's reference data set, sinapi/mg-202608 (copied by hand; the test does
// not read that file). Caixa publishes `published`; the other figures were
// recomputed independently, with exact decimal arithmetic by a different
// tool, from the same three files:
//
//	exact     = Σ coef × price                 (soma_exata)
//	lineRound = Σ round-half-up₂(coef × price)  (soma_itens_arredondados_2c)
//	sumRound  = round-half-up₂(Σ coef × price)  (soma_exata_arredondada_2c)
//	sumTrunc  = trunc₂(Σ coef × price)          (soma_exata_truncada_2c)
//
// Σ trunc₂(coef × price) (soma_itens_truncados_2c) equals `published` in all
// ten rows, which is why Caixa's rule is Truncate2 per line.
var mgExpected = []struct {
	code                                          string
	regime                                        domain.Regime
	published, exact, lineRound, sumRound, sumTrc string
}{
	{"89306", domain.NaoDesonerado, "113.33", "113.368489", "113.36", "113.37", "113.36"},
	{"89290", domain.NaoDesonerado, "102.80", "102.837019", "102.83", "102.84", "102.83"},
	{"89298", domain.NaoDesonerado, "106.93", "106.969856", "106.97", "106.97", "106.96"},
	{"89282", domain.NaoDesonerado, "96.54", "96.581104", "96.58", "96.58", "96.58"},
	{"89478", domain.NaoDesonerado, "155.85", "155.864833", "155.85", "155.86", "155.86"},
	{"89306", domain.Desonerado, "110.13", "110.178974", "110.18", "110.18", "110.17"},
	{"89290", domain.Desonerado, "100.12", "100.154735", "100.15", "100.15", "100.15"},
	{"89298", domain.Desonerado, "104.11", "104.147455", "104.15", "104.15", "104.14"},
	{"89282", domain.Desonerado, "94.24", "94.264000", "94.26", "94.26", "94.26"},
	{"89478", domain.Desonerado, "152.15", "152.172704", "152.17", "152.17", "152.17"},
}

func price(t *testing.T, d *mgData, code string, m domain.RoundingMethod) *domain.PricedComposition {
	t.Helper()
	c := d.rebuild(code, m)
	if err := c.Validate(); err != nil {
		t.Fatalf("%s: rebuilt composition is not valid: %v", code, err)
	}
	pc, err := domain.NewPricer(d).Price(c)
	if err != nil {
		t.Fatalf("%s: Price: %v", code, err)
	}
	for _, it := range pc.Items {
		if it.Missing {
			t.Fatalf("%s: item %s %s is missing", code, it.Kind, it.Code)
		}
	}
	return pc
}

// TestSinapiMGPublishedTotals: with Truncate2 (Caixa's rule, the default of a
// SINAPI-model composition) all 10 (composition, regime) totals equal
// Caixa's published cost.
func TestSinapiMGPublishedTotals(t *testing.T) {
	d := loadMG(t)
	if want := []string{"89306", "89290", "89298", "89282", "89478"}; !cmp.Equal(d.analytic, want) {
		t.Fatalf("compositions with structure = %v, want %v", d.analytic, want)
	}
	if domain.DefaultRounding(false) != domain.Truncate2 {
		t.Fatalf("default rounding of a SINAPI-model composition = %d, want Truncate2", domain.DefaultRounding(false))
	}
	checked := 0
	for _, code := range d.analytic {
		pc := price(t, d, code, domain.DefaultRounding(false))
		published := d.compositions[code].Cost
		if diff := cmp.Diff(published, pc.Prices.Unit(), decEqual); diff != "" {
			t.Errorf("%s: (-published +computed):\n%s", code, diff)
		}
		for _, e := range mgExpected {
			if e.code == code && !published.In(e.regime).Equal(domain.Dec(e.published)) {
				t.Errorf("%s %s: testdata says %s, table says %s", code, e.regime, published.In(e.regime), e.published)
			}
		}
		checked += 2
	}
	if checked != 10 {
		t.Errorf("checked %d (composition, regime) pairs, want 10", checked)
	}
}

// TestSinapiMGLines checks 89306 line by line against Caixa's analytic view
// (DERIVED_analitico_mg_202608.csv, total_truncado_2c).
func TestSinapiMGLines(t *testing.T) {
	d := loadMG(t)
	pc := price(t, d, "89306", domain.Truncate2)
	type line struct {
		Code, Unit string
		Kind       domain.ItemKind
		UnitPrice  domain.UnitPrice
		Total      domain.UnitPrice
	}
	up := func(nd, de string) domain.UnitPrice { return domain.UnitPrice{PND: domain.Dec(nd), PD: domain.Dec(de)} }
	want := []line{
		{"88316", "H", domain.KindComposition, up("24.88", "23.58"), up("16.18", "15.33")},    // 0.6505 × 24.88 = 16.184440
		{"88309", "H", domain.KindComposition, up("33.62", "31.67"), up("37.49", "35.31")},    // 1.1152 × 33.62 = 37.493024
		{"87286", "M3", domain.KindComposition, up("713.59", "703.92"), up("12.48", "12.31")}, // 0.0175 × 713.59 = 12.487825
		{"34788", "UN", domain.KindResource, up("1.61", "1.61"), up("2.47", "2.47")},          // 1.54 × 1.61 = 2.4794
		{"34649", "UN", domain.KindResource, up("3.48", "3.48"), up("4.45", "4.45")},          // 1.28 × 3.48 = 4.4544
		{"34586", "UN", domain.KindResource, up("2.62", "2.62"), up("40.26", "40.26")},        // 15.37 × 2.62 = 40.2694
	}
	var got []line
	for _, it := range pc.Items {
		got = append(got, line{it.Code, it.Unit, it.Kind, it.UnitPrice, it.Total})
	}
	if diff := cmp.Diff(want, got, decEqual); diff != "" {
		t.Errorf("89306 lines (-want +got):\n%s", diff)
	}
}

// TestSinapiMGOtherRoundings: the other rounding methods give the derived
// figures, so the published totals are not a coincidence of the data.
func TestSinapiMGOtherRoundings(t *testing.T) {
	d := loadMG(t)
	for _, e := range mgExpected {
		exact := price(t, d, e.code, domain.NoRounding).Prices.Unit().In(e.regime)
		lineRound := price(t, d, e.code, domain.RoundHalfUp2).Prices.Unit().In(e.regime)
		trunc2 := price(t, d, e.code, domain.Truncate2).Prices.Unit().In(e.regime)
		trunc4 := price(t, d, e.code, domain.Truncate4).Prices.Unit().In(e.regime)
		for _, c := range []struct {
			name      string
			got, want decimal.Decimal
		}{
			{"NoRounding = soma_exata", exact, domain.Dec(e.exact)},
			{"RoundHalfUp2 per line = soma_itens_arredondados_2c", lineRound, domain.Dec(e.lineRound)},
			{"round₂ of the exact sum = soma_exata_arredondada_2c", domain.RoundHalfUp(exact, 2), domain.Dec(e.sumRound)},
			{"trunc₂ of the exact sum = soma_exata_truncada_2c", exact.Truncate(2), domain.Dec(e.sumTrc)},
			{"Truncate2 per line = published", trunc2, domain.Dec(e.published)},
		} {
			if !c.got.Equal(c.want) {
				t.Errorf("%s %s: %s: got %s, want %s", e.code, e.regime, c.name, c.got, c.want)
			}
		}
		// Truncating each line to 4 places loses less than truncating to 2.
		if trunc4.LessThan(trunc2) || trunc4.GreaterThan(exact) {
			t.Errorf("%s %s: Truncate4 total %s not between %s and %s", e.code, e.regime, trunc4, trunc2, exact)
		}
	}
}
