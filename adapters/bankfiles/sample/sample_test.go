package sample_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

var decEqual = cmp.Comparer(func(a, b decimal.Decimal) bool { return a.Equal(b) })

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func load(t *testing.T) (sinapi, sicro sample.Edition) {
	t.Helper()
	eds, err := sample.Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(eds) != 2 {
		t.Fatalf("Load gave %d editions, want 2", len(eds))
	}
	return eds[0], eds[1]
}

func resources(e sample.Edition) map[string]*domain.BankResource {
	m := map[string]*domain.BankResource{}
	for _, r := range e.Resources {
		m[r.Code] = r
	}
	return m
}

func compositions(e sample.Edition) map[string]*domain.BankComposition {
	m := map[string]*domain.BankComposition{}
	for _, c := range e.Compositions {
		m[c.Code] = c
	}
	return m
}

func TestEditions(t *testing.T) {
	sinapi, sicro := load(t)
	both := []domain.Regime{domain.NaoDesonerado, domain.Desonerado}
	want := []domain.Edition{{
		Bank: "SINAPI", State: "MG", Month: "08/2026", Regimes: both,
		Resources: 19, Compositions: 8, Structures: 5, Source: sample.SinapiSource,
	}, {
		// 15 equipment + 10 labour + 19 materials (M0104 has no price: "-").
		Bank: "SICRO3", State: "AL", Month: "01/2024", Regimes: both,
		Resources: 44, Compositions: 31, Structures: 0, Source: sample.SicroSource,
	}}
	for i, e := range []sample.Edition{sinapi, sicro} {
		if diff := cmp.Diff(want[i], e.Edition); diff != "" {
			t.Errorf("edition %d (-want +got):\n%s", i, diff)
		}
		if len(e.Resources) != e.Edition.Resources || len(e.Compositions) != e.Edition.Compositions {
			t.Errorf("%s: %d resources and %d compositions, edition says %d and %d",
				e.Edition.Bank, len(e.Resources), len(e.Compositions), e.Edition.Resources, e.Edition.Compositions)
		}
	}
	for _, bank := range []string{"SINAPI/CAIXA", "gustavoecivil/universo-sinapi", "kayque-soares/sinapi-sp-dados"} {
		if !bytes.Contains([]byte(sinapi.Edition.Source), []byte(bank)) {
			t.Errorf("SINAPI source does not cite %s", bank)
		}
	}
	for _, bank := range []string{"SICRO/DNIT", "DrKobun/SINAPI-e-SICRO-Downloads-"} {
		if !bytes.Contains([]byte(sicro.Edition.Source), []byte(bank)) {
			t.Errorf("SICRO source does not cite %s", bank)
		}
	}
	// Each call parses afresh: changing one result leaves the next alone.
	sinapi.Resources[0].Code = "changed"
	again, _ := load(t)
	if again.Resources[0].Code == "changed" {
		t.Error("Load returned shared records")
	}
}

func TestSinapiResources(t *testing.T) {
	sinapi, _ := load(t)
	got := resources(sinapi)
	// Values as in insumos_mg_subset.csv (False = não desonerado -> PND and
	// PNDI; True = desonerado -> PD and PDI).
	want := []*domain.BankResource{{
		Code: "7153", Description: "TECNICO EM LABORATORIO E CAMPO DE CONSTRUCAO CIVIL (HORISTA)", Unit: "H",
		Type:   domain.TypeLabor,
		Prices: domain.PriceLine{PND: dec("45.88"), PD: dec("42.51"), PNDI: dec("45.88"), PDI: dec("42.51")},
	}, {
		Code: "37666", Description: "OPERADOR DE BETONEIRA ESTACIONARIA / MISTURADOR (HORISTA)", Unit: "H",
		Type:   domain.TypeLabor,
		Prices: domain.PriceLine{PND: dec("23.95"), PD: dec("22.19"), PNDI: dec("23.95"), PDI: dec("22.19")},
	}, {
		Code: "34586", Description: "BLOCO ESTRUTURAL CERAMICO DE 14 X 19 X 29 CM (L X A X C) E 6,0 MPA", Unit: "UN",
		Type:   domain.TypeMaterial,
		Prices: domain.PriceLine{PND: dec("2.62"), PD: dec("2.62"), PNDI: dec("2.62"), PDI: dec("2.62")},
	}, {
		Code: "38592", Description: "MEIO BLOCO DE CONCRETO ESTRUTURAL 14 X 19 X 14 CM, FBK 14 MPA (NBR 6136)", Unit: "UN",
		Type:   domain.TypeMaterial,
		Prices: domain.PriceLine{PND: dec("3.30"), PD: dec("3.3"), PNDI: dec("3.3"), PDI: dec("3.30")},
	}}
	for _, w := range want {
		if diff := cmp.Diff(w, got[w.Code], decEqual); diff != "" {
			t.Errorf("resource %s (-want +got):\n%s", w.Code, diff)
		}
	}
	var labour int
	for _, r := range sinapi.Resources {
		if r.Type == domain.TypeLabor {
			labour++
		}
	}
	if labour != 3 {
		t.Errorf("%d labour insumos, want 3 (7153, 12868, 37666)", labour)
	}
}

func TestSinapiCompositions(t *testing.T) {
	sinapi, _ := load(t)
	got := compositions(sinapi)
	item := func(kind domain.ItemKind, code, k string) domain.StructureItem {
		return domain.StructureItem{Kind: kind, Code: code, Coefficient: dec(k)}
	}
	R, C := domain.KindResource, domain.KindComposition
	want := []*domain.BankComposition{{
		Code:        "89306",
		Description: "ALVENARIA ESTRUTURAL DE BLOCOS CERÂMICOS 14X19X29 CM (ESPESSURA 14 CM), FBK = 6 MPA, UTILIZANDO COLHER DE PEDREIRO. AF_07/2026",
		Unit:        "M2",
		Cost:        domain.UnitPrice{PND: dec("113.33"), PD: dec("110.13")},
		Items: []domain.StructureItem{
			item(C, "88316", "0.6505"), item(C, "88309", "1.1152"), item(C, "87286", "0.0175"),
			item(R, "34788", "1.54"), item(R, "34649", "1.28"), item(R, "34586", "15.37"),
		},
	}, {
		Code:        "89478",
		Description: "ALVENARIA DE BLOCOS DE CONCRETO ESTRUTURAL 14X19X29 CM (ESPESSURA 14 CM), FBK = 4,5 MPA, UTILIZANDO COLHER DE PEDREIRO. AF_07/2026",
		Unit:        "M2",
		Cost:        domain.UnitPrice{PND: dec("155.85"), PD: dec("152.15")},
		Items: []domain.StructureItem{
			item(C, "88316", "1.0804"), item(C, "88309", "1.0804"), item(C, "87286", "0.0187"),
			item(R, "38596", "1.29"), item(R, "38590", "15.54"), item(R, "38588", "1.55"),
		},
	}, {
		Code: "88309", Description: "PEDREIRO COM ENCARGOS COMPLEMENTARES", Unit: "H",
		Cost: domain.UnitPrice{PND: dec("33.62"), PD: dec("31.67")},
	}}
	for _, w := range want {
		if diff := cmp.Diff(w, got[w.Code], decEqual); diff != "" {
			t.Errorf("composition %s (-want +got):\n%s", w.Code, diff)
		}
	}
	if c := got["89290"]; c == nil || !c.Cost.PND.Equal(dec("102.80")) || !c.Cost.PD.Equal(dec("100.12")) {
		t.Errorf("89290 = %+v, want 102.80 / 100.12", c)
	}
	// The coefficient 0.575 of 89298 is kept exactly, not as a float.
	if c := got["89298"]; c == nil || c.Items[0].Coefficient.String() != "0.575" {
		t.Errorf("89298 first coefficient = %v, want 0.575", c.Items[0].Coefficient)
	}
}

func TestSicroResources(t *testing.T) {
	_, sicro := load(t)
	got := resources(sicro)
	want := []*domain.BankResource{{
		// Same cost in both regimes (no operator).
		Code: "E9001", Unit: "h", Type: domain.TypeEquipment,
		Description: "Conjunto vibratório para tubos de concreto com encaixe PB e 3 jogos de fôrmas - D = 0,60 m - 2,20 kW",
		Prices:      domain.PriceLine{PND: dec("18.1827"), PD: dec("18.1827"), PNDI: dec("11.3001"), PDI: dec("11.3001")},
	}, {
		// Operator labour differs by regime.
		Code: "E9009", Unit: "h", Type: domain.TypeEquipment, Description: "Embarcação rebocadora - 268 kW",
		Prices: domain.PriceLine{PND: dec("425.0582"), PD: dec("409.9229"), PNDI: dec("146.2777"), PDI: dec("131.1424")},
	}, {
		// CSV: CI com = 80.15219999999999.
		Code: "E9022", Unit: "h", Type: domain.TypeEquipment, Description: "Pórtico metálico rolante com capacidade de 25 t - 30 kW",
		Prices: domain.PriceLine{PND: dec("115.8664"), PD: dec("113.6060"), PNDI: dec("82.4126"), PDI: dec("80.1522")},
	}, {
		// CSV: CP sem = 67.87090000000001.
		Code: "E9053", Unit: "h", Type: domain.TypeEquipment, Description: "Perfuratriz hidráulica montada em flutuante - 32 kW",
		Prices: domain.PriceLine{PND: dec("67.8709"), PD: dec("64.9358"), PNDI: dec("41.6864"), PDI: dec("38.7513")},
	}, {
		// CSV: CI = 0.008399999999999999 in both.
		Code: "E9231", Unit: "h", Type: domain.TypeEquipment, Description: "Maçarico lança-chamas a gás liquefeito de petróleo (GLP)",
		Prices: domain.PriceLine{PND: dec("0.0152"), PD: dec("0.0152"), PNDI: dec("0.0084"), PDI: dec("0.0084")},
	}, {
		// Vehicle row: component cells empty, only CP and CI filled.
		Code: "E9145", Unit: "h", Type: domain.TypeEquipment, Description: "Caminhão basculante para concreto com capacidade de 7 m³ - 188 kW",
		Prices: domain.PriceLine{PND: dec("275.7591"), PD: dec("273.2484"), PNDI: dec("84.4578"), PDI: dec("81.9471")},
	}, {
		// CSV: 19.505700000000001 sem, 17.764900000000001 com.
		Code: "P9801", Unit: "h", Type: domain.TypeLabor, Description: "Ajudante",
		Prices: domain.PriceLine{PND: dec("19.5057"), PD: dec("17.7649"), PNDI: dec("19.5057"), PDI: dec("17.7649")},
	}, {
		// CSV com: 26.931699999999999 (truncating the text would give 26.9316).
		Code: "P9956", Unit: "h", Type: domain.TypeLabor, Description: "Motorista de caminhão com periculosidade",
		Prices: domain.PriceLine{PND: dec("30.1923"), PD: dec("26.9317"), PNDI: dec("30.1923"), PDI: dec("26.9317")},
	}, {
		// Monthly labour keeps its unit; CSV: 5823.1914999999999 / 5191.1270000000004.
		Code: "P9803", Unit: "mês", Type: domain.TypeLabor, Description: "Almoxarife",
		Prices: domain.PriceLine{PND: dec("5823.1915"), PD: dec("5191.127"), PNDI: dec("5823.1915"), PDI: dec("5191.1270")},
	}, {
		Code: "M0003", Unit: "kg", Type: domain.TypeMaterial, Description: "Aço CA 25",
		Prices: domain.PriceLine{PND: dec("7.1213"), PD: dec("7.1213"), PNDI: dec("7.1213"), PDI: dec("7.1213")},
	}, {
		// CSV: 82529.27929999999.
		Code: "M0059", Unit: "un", Type: domain.TypeMaterial,
		Description: "Contêiner com revestimento térmico, janela e banheiro - L = 2,44 m e C = 6,09 m (1 TEU)",
		Prices:      domain.PriceLine{PND: dec("82529.2793"), PD: dec("82529.2793"), PNDI: dec("82529.2793"), PDI: dec("82529.2793")},
	}, {
		// Quoted CSV field with a doubled quote.
		Code: "M0945", Unit: "cj", Type: domain.TypeMaterial,
		Description: `Parafuso de cabeça sextavada em aço galvanizado com porca e arruela de pressão - D = 6,35 mm (1/4")`,
		Prices:      domain.PriceLine{PND: dec("0.5644"), PD: dec("0.5644"), PNDI: dec("0.5644"), PDI: dec("0.5644")},
	}}
	for _, w := range want {
		if diff := cmp.Diff(w, got[w.Code], decEqual); diff != "" {
			t.Errorf("resource %s (-want +got):\n%s", w.Code, diff)
		}
	}
	if r, ok := got["M0104"]; ok {
		t.Errorf("M0104 (price \"-\" in the report) was read as %+v; want it left out", r)
	}
	// Every price has at most 4 places, as DNIT publishes.
	for _, r := range sicro.Resources {
		for _, p := range []decimal.Decimal{r.Prices.PND, r.Prices.PD, r.Prices.PNDI, r.Prices.PDI} {
			if !p.Equal(p.Truncate(4)) {
				t.Errorf("%s: price %s has more than 4 places", r.Code, p)
			}
		}
	}
}

func TestSicroCompositions(t *testing.T) {
	_, sicro := load(t)
	got := compositions(sicro)
	for _, w := range []struct{ code, unit, cost string }{
		{"0307731", "dm³", "112.02"},    // leading zero kept
		{"0308323", "un", "8676.55"},    // CSV: 8676.549999999999
		{"0408042", "un", "93.54"},      // CSV: 93.54000000000001
		{"0606792", "m", "72135.85"},    // CSV: 72135.85000000001
		{"0308300", "un", "55768"},      // CSV: 55768
		{"0307730", "m", "0"},           // published as 0
		{"5906597", "unkm", "12.31"},    // other units as published
		{"7119788", "mês", "263971.72"}, // last code family (7…)
	} {
		c := got[w.code]
		if c == nil {
			t.Errorf("composition %s missing", w.code)
			continue
		}
		// The synthetic report names no regime: it is sem desoneração only.
		if c.Unit != w.unit || !c.Cost.PND.Equal(dec(w.cost)) || !c.Cost.PD.IsZero() || len(c.Items) != 0 {
			t.Errorf("composition %s = unit %q cost %s/%s items %d; want %q %s não desonerado, 0 desonerado, no items",
				w.code, c.Unit, c.Cost.PND, c.Cost.PD, len(c.Items), w.unit, w.cost)
		}
	}
	if _, ok := got["307731"]; ok {
		t.Error("a code lost its leading zero")
	}
	for _, c := range sicro.Compositions {
		if !c.Cost.PND.Equal(c.Cost.PND.Truncate(2)) {
			t.Errorf("%s: cost %s has more than 2 places", c.Code, c.Cost.PND)
		}
	}
}

// TestSinapiRecompute prices the five analytic compositions from the
// sample's own records with the domain's pricer: the published totals come
// back in both regimes.
func TestSinapiRecompute(t *testing.T) {
	sinapi, _ := load(t)
	src := source{res: resources(sinapi), comp: compositions(sinapi), key: sinapi.Edition.Key()}
	ref := sinapi.Edition.Ref()
	n := 0
	for _, bc := range sinapi.Compositions {
		if len(bc.Items) == 0 {
			continue
		}
		n++
		c := &domain.Composition{Code: bc.Code, Description: bc.Description, Unit: bc.Unit, State: "MG",
			Rounding: domain.Truncate2, Banks: []domain.BankRef{ref}}
		for _, it := range bc.Items {
			c.SetItem(domain.Item{Bank: "SINAPI", Code: it.Code, Kind: it.Kind, Quantity: it.Coefficient})
		}
		pc, err := domain.NewPricer(src).Price(c)
		if err != nil {
			t.Fatalf("%s: %v", bc.Code, err)
		}
		if diff := cmp.Diff(bc.Cost, pc.Prices.Unit(), decEqual); diff != "" {
			t.Errorf("%s: computed vs published (-published +computed):\n%s", bc.Code, diff)
		}
	}
	if n != 5 {
		t.Errorf("%d compositions with structure, want 5", n)
	}
}

type source struct {
	res  map[string]*domain.BankResource
	comp map[string]*domain.BankComposition
	key  string
}

func (s source) OwnResource(string) (*domain.Resource, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no own resources")
}

func (s source) OwnComposition(string, string) (*domain.Composition, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no own compositions")
}

func (s source) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	if r := s.res[code]; r != nil && ref.EditionKey() == s.key {
		return r, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no resource %s", code)
}

func (s source) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	if c := s.comp[code]; c != nil && ref.EditionKey() == s.key {
		return c, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s", code)
}

// TestSinapiCopiesAgree checks that the SINAPI files embedded here and the
// copies the domain's acceptance test reads are the same bytes.
func TestSinapiCopiesAgree(t *testing.T) {
	for _, name := range []string{"insumos_mg_subset.csv", "composicoes_mg_subset.csv", "estrutura_2026-08_subset.json"} {
		a, err := os.ReadFile(filepath.Join("data", "sinapi-mg-202608", name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "domain", "testdata", "sinapi-mg-202608", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between adapters/bankfiles/sample/data and domain/testdata", name)
		}
	}
}
