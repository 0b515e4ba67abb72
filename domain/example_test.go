package domain_test

import (
	"fmt"

	"github.com/costdb/costdb/domain"
)

// memorySource is the smallest PriceSource: one bank edition held in maps.
// A real one reads the store; the pricing itself stays in the domain.
type memorySource struct {
	edition      domain.BankRef
	resources    map[string]*domain.BankResource
	compositions map[string]*domain.BankComposition
}

func (s memorySource) OwnResource(code string) (*domain.Resource, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no resource %s", code)
}

func (s memorySource) OwnComposition(code, state string) (*domain.Composition, error) {
	return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s", code)
}

func (s memorySource) BankResource(ref domain.BankRef, code string) (*domain.BankResource, error) {
	if r, ok := s.resources[code]; ok && ref.EditionKey() == s.edition.EditionKey() {
		return r, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no resource %s in %s", code, ref.EditionKey())
}

func (s memorySource) BankComposition(ref domain.BankRef, code string) (*domain.BankComposition, error) {
	if c, ok := s.compositions[code]; ok && ref.EditionKey() == s.edition.EditionKey() {
		return c, nil
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "no composition %s in %s", code, ref.EditionKey())
}

// Pricing a SINAPI-model composition: the items of SINAPI 89306 (structural
// masonry, MG 08/2026) entered as a company's own composition. Each line is
// coefficient × unit price truncated to centavos, as Caixa does, and the
// price is the sum of the lines: 113.33 não desonerado and 110.13
// desonerado, Caixa's published costs (the exact sums are 113.368489 and
// 110.178974).
func ExamplePricer() {
	mg := domain.BankRef{Name: "SINAPI", State: "MG", Month: "08/2026"}
	material := func(code, unit, price string) *domain.BankResource {
		p := domain.Dec(price) // materials cost the same in both regimes
		return &domain.BankResource{Code: code, Unit: unit, Type: domain.TypeMaterial,
			Prices: domain.PriceLine{PND: p, PD: p, PNDI: p, PDI: p}}
	}
	published := func(code, unit, nd, d string) *domain.BankComposition {
		return &domain.BankComposition{Code: code, Unit: unit,
			Cost: domain.UnitPrice{PND: domain.Dec(nd), PD: domain.Dec(d)}}
	}
	src := memorySource{
		edition: mg,
		resources: map[string]*domain.BankResource{
			"34788": material("34788", "UN", "1.61"),
			"34649": material("34649", "UN", "3.48"),
			"34586": material("34586", "UN", "2.62"),
		},
		compositions: map[string]*domain.BankComposition{
			"88316": published("88316", "H", "24.88", "23.58"),    // servente com encargos
			"88309": published("88309", "H", "33.62", "31.67"),    // pedreiro com encargos
			"87286": published("87286", "M3", "713.59", "703.92"), // argamassa 1:1:6
		},
	}

	c := &domain.Composition{
		Code: "ALV-14", Description: "Alvenaria estrutural 14x19x29", Unit: "M2", State: "MG",
		Rounding: domain.DefaultRounding(false), // Truncate2, as Caixa
	}
	c.SetBank(mg)
	for _, it := range []struct {
		code string
		kind domain.ItemKind
		coef string
	}{
		{"88316", domain.KindComposition, "0.6505"},
		{"88309", domain.KindComposition, "1.1152"},
		{"87286", domain.KindComposition, "0.0175"},
		{"34788", domain.KindResource, "1.54"},
		{"34649", domain.KindResource, "1.28"},
		{"34586", domain.KindResource, "15.37"},
	} {
		c.SetItem(domain.Item{Bank: "SINAPI", Code: it.code, Kind: it.kind, Quantity: domain.Dec(it.coef)})
	}
	if err := c.Validate(); err != nil {
		fmt.Println(err)
		return
	}

	pc, err := domain.NewPricer(src).Price(c)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, it := range pc.Items {
		fmt.Printf("%-5s %-2s %7s × %6s = %5s   (desonerado %5s)\n", it.Code, it.Unit, it.Quantity,
			it.UnitPrice.PND.StringFixed(2), it.Total.PND.StringFixed(2), it.Total.PD.StringFixed(2))
	}
	fmt.Println("não desonerado:", pc.Prices.PND.StringFixed(2))
	fmt.Println("desonerado:    ", pc.Prices.PD.StringFixed(2))
	// Output:
	// 88316 H   0.6505 ×  24.88 = 16.18   (desonerado 15.33)
	// 88309 H   1.1152 ×  33.62 = 37.49   (desonerado 35.31)
	// 87286 M3  0.0175 × 713.59 = 12.48   (desonerado 12.31)
	// 34788 UN    1.54 ×   1.61 =  2.47   (desonerado  2.47)
	// 34649 UN    1.28 ×   3.48 =  4.45   (desonerado  4.45)
	// 34586 UN   15.37 ×   2.62 = 40.26   (desonerado 40.26)
	// não desonerado: 113.33
	// desonerado:     110.13
}

// One line of a composition under each rounding method: 0.0175 m³ of
// mortar at R$ 713.59 is exactly 12.487825.
func ExampleLineTotal() {
	for _, m := range domain.RoundingMethods {
		fmt.Printf("%d %-32s %s\n", m, m.Description(), domain.LineTotal(m, domain.Dec("0.0175"), domain.Dec("713.59")))
	}
	// Output:
	// 1 Arredondar com 2 casas decimais  12.49
	// 2 Truncar com 2 casas decimais     12.48
	// 3 Truncar com 4 casas decimais     12.4878
	// 4 Sem arredondamento               12.487825
}

// Half a centavo rounds up; truncation drops the digits.
func ExampleRoundingMethod_Apply() {
	for _, s := range []string{"1.005", "0.129", "2.00005"} {
		d := domain.Dec(s)
		fmt.Println(s, "→", domain.RoundHalfUp2.Apply(d), domain.Truncate2.Apply(d),
			domain.Truncate4.Apply(d), domain.NoRounding.Apply(d))
	}
	// Output:
	// 1.005 → 1.01 1 1.005 1.005
	// 0.129 → 0.13 0.12 0.129 0.129
	// 2.00005 → 2 2 2 2.00005
}

// Validation names every bad field at once, as a JSON pointer into the
// input, under the code EINVALID.
func ExampleComposition_Validate() {
	c := &domain.Composition{
		Code: "ALV-14", Description: "Alvenaria", Unit: "M2", State: "Minas",
		Rounding: domain.Truncate2,
		Banks:    []domain.BankRef{{Name: "SINAPI", State: "MG", Month: "2026-08"}},
		Items: []domain.Item{
			{Bank: "SINAPI", Code: "88309", Kind: domain.KindComposition, Quantity: domain.Dec("1.1152")},
			{Bank: "SINAPI", Code: "34586", Kind: domain.KindResource, Quantity: domain.Dec("0")},
		},
	}
	err := c.Validate()
	fmt.Println(domain.ErrorCode(err))
	for _, f := range domain.ErrorFields(err) {
		fmt.Printf("%s: %s\n", f.Field, f.Message)
	}
	// Output:
	// invalid
	// /state: is not a state code
	// /banks/0/version: must be a month as MM/YYYY
	// /items/1/quantity: must be greater than zero
}
