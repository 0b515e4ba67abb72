// Package encodetest makes random records for the tests that compare the
// answers written without reflection with encoding/json's (httpapi, v1,
// v2): texts with quotes, backslashes, control characters, accents, emoji,
// U+2028, invalid UTF-8 and HTML; figures of every shape (zero, negative,
// trailing zeros, positive exponents, more places than an answer shows,
// coefficients beyond int64, beyond the bounds); items without prices,
// repeated lines and banks, empty lists.
package encodetest

import (
	"math/rand/v2"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Texts are the strings records are made of.
var Texts = []string{
	"", "SINAPI", "MYBASE", "88309", "001", "M3", "h", "SP", "MG",
	"Concreto fck=25 MPa, preparo mecânico", `quote " and back\slash`, "a/b?c=d&e=f#g",
	"ctrl \x00\x01\x07\x08\x0c\x0e\x1f\x7f end", "\b\f\n\r\t", "ção é ü 日本語 🎉", "\u2028 and \u2029",
	"invalid \xff\xfe utf8", "cut rune \xe6\x97", "\xe6\x97", "<script>alert('x')</script> &amp;",
	"  spaces  ", "a:b:c", "SINAPI:R:1", "ÇÃO", "\u00a0nbsp", "\ufffd", "\x80",
}

// Text is one of Texts.
func Text(r *rand.Rand) string { return Texts[r.IntN(len(Texts))] }

// Tags are a record's tags: none (nil, as a record without tags holds
// them) or a few texts.
func Tags(r *rand.Rand) []string {
	n := r.IntN(5) - 1
	if n <= 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = Text(r)
	}
	return out
}

// Decimals are the figures records hold.
var Decimals = []decimal.Decimal{
	decimal.Zero, decimal.New(0, 5), decimal.New(0, -3), decimal.New(1, 0), decimal.New(-1, 0),
	decimal.New(5, -1), decimal.New(-5, -1), decimal.New(100, -2), decimal.New(150, -2), decimal.New(-100, -2),
	decimal.New(15, 2), decimal.New(-15, 3), decimal.New(7, 14), decimal.New(1, 15), decimal.New(123, 13),
	decimal.New(5, -20), decimal.New(12345, -12), decimal.New(-12345, -11), decimal.New(1, -10), decimal.New(1, -11),
	decimal.New(999999999999999999, 0), decimal.New(999999999999999999, -3), decimal.New(-999999999999999999, -18),
	decimal.New(100000000000000000, -19), decimal.New(1, 19), decimal.New(3, -19),
	decimal.RequireFromString("123.456"), decimal.RequireFromString("0.0001234"), decimal.RequireFromString("99999.99"),
	decimal.RequireFromString("999999999999999.9999999999"), decimal.RequireFromString("1000000000000000"),
	decimal.RequireFromString("12345678901234567890.123"), decimal.RequireFromString("-12345678901234567890123"),
	decimal.RequireFromString("0.12345678901234567890"), decimal.RequireFromString("1.23456789015"),
	decimal.RequireFromString("9.99999999995"), decimal.RequireFromString("-0.00000000005"),
	decimal.RequireFromString("1e40"), decimal.RequireFromString("1.5e-30"),
}

// Decimal is a figure: one of Decimals, or a random one of up to 18
// digits and 12 places.
func Decimal(r *rand.Rand) decimal.Decimal {
	if r.IntN(3) == 0 {
		return decimal.New(r.Int64N(1_000_000_000_000_000_000)-r.Int64N(1_000_000_000), -int32(r.IntN(13)))
	}
	return Decimals[r.IntN(len(Decimals))]
}

// Sane is a figure within the bounds, for records whose answer must not be
// a 409.
func Sane(r *rand.Rand) decimal.Decimal {
	return decimal.New(r.Int64N(100_000_000_000), -int32(r.IntN(7)))
}

// Composition is a random priced composition; wild draws figures of every
// shape (Decimal), otherwise within the bounds (Sane).
func Composition(r *rand.Rand, wild bool) *domain.PricedComposition {
	num := Sane
	if wild {
		num = Decimal
	}
	loc := time.FixedZone("X", -3*3600)
	c := &domain.Composition{
		ID: Text(r) + "01J", CompanyID: Text(r), UserID: Text(r), DepartmentID: Text(r), GroupID: Text(r),
		Code: Text(r), SecondCode: Text(r), Description: Text(r), Type: Text(r), Unit: Text(r), State: Text(r),
		IsSicro: r.IntN(2) == 0, Labor: r.IntN(2) == 0, Rounding: domain.RoundingMethod(r.IntN(6)), Note: Text(r),
		TeamProduction: num(r), FIC: num(r), LaborAddition: num(r),
		CreatedAt: time.Date(2000+r.IntN(40), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1e9), loc),
	}
	if r.IntN(4) == 0 {
		c.ID = ""
	}
	c.Tags = Tags(r)
	for range r.IntN(5) {
		b := domain.BankRef{Name: Text(r), State: Text(r), Month: Text(r), Report: r.IntN(2) == 0}
		if r.IntN(3) == 0 {
			b.Region = Text(r)
		}
		if r.IntN(3) == 0 {
			b.AskedRegion = Text(r)
		}
		if r.IntN(3) == 0 {
			v := r.IntN(2) == 0
			b.WithLaborCharges = &v
		}
		if len(c.Banks) > 0 && r.IntN(4) == 0 {
			b.Name = c.Banks[r.IntN(len(c.Banks))].Name // a repeated name
		}
		c.Banks = append(c.Banks, b)
	}
	pc := &domain.PricedComposition{Composition: c}
	for range r.IntN(26) {
		it := domain.PricedItem{
			Item:        domain.Item{Bank: Text(r), Code: Text(r), Kind: []domain.ItemKind{domain.KindResource, domain.KindComposition}[r.IntN(2)], Quantity: num(r)},
			Description: Text(r), Unit: Text(r), Type: Text(r),
			UnitPrice: domain.UnitPrice{PND: num(r), PD: num(r)},
			Total:     domain.UnitPrice{PND: num(r), PD: num(r)},
			Missing:   r.IntN(5) == 0,
			Unpriced:  [2]bool{r.IntN(5) == 0, r.IntN(5) == 0},
		}
		if r.IntN(3) == 0 {
			it.Utilization = decimal.NullDecimal{Decimal: num(r), Valid: true}
		}
		if len(pc.Items) > 0 && r.IntN(6) == 0 {
			it.Item.Bank, it.Item.Code, it.Item.Kind = pc.Items[r.IntN(len(pc.Items))].Bank, pc.Items[r.IntN(len(pc.Items))].Code, pc.Items[0].Kind
		}
		pc.Items = append(pc.Items, it)
	}
	for range max(r.IntN(6)-2, 0) {
		m := domain.MissingPrice{Bank: Text(r), Code: Text(r), Kind: []domain.ItemKind{domain.KindResource, domain.KindComposition}[r.IntN(2)], Reason: Text(r)}
		if r.IntN(4) == 0 {
			m.Field = Text(r)
		}
		pc.Missing = append(pc.Missing, m)
	}
	p := &pc.Prices
	p.Unpriced = [2]bool{r.IntN(6) == 0, r.IntN(6) == 0}
	for _, f := range []*decimal.Decimal{&p.PND, &p.PD, &p.ChDeEq, &p.ChdDeEq, &p.ChiDeEq, &p.ChdiDeEq, &p.ChDaMo, &p.ChdDaMo,
		&p.CHE, &p.CHDE, &p.ChIncidencia, &p.CTF, &p.CTFD, &p.CUOI, &p.CUOID, &p.CCA, &p.CCAD, &p.CUMO} {
		*f = num(r)
	}
	return pc
}

// Resource is a random resource; wild as for Composition.
func Resource(r *rand.Rand, wild bool) *domain.Resource {
	num := Sane
	typ := r.IntN(10)
	if wild {
		num = Decimal
		typ = []int{0, 1, -1, 999999999999999, 1000000000000000, -1000000000000000}[r.IntN(6)]
	}
	res := &domain.Resource{
		ID: Text(r) + "01J", CompanyID: Text(r), UserID: Text(r), DepartmentID: Text(r), GroupID: Text(r),
		Code: Text(r), SecondCode: Text(r), Description: Text(r), Type: typ, Unit: Text(r),
		IsSicro: r.IntN(2) == 0, Status: r.IntN(2) == 0, Note: Text(r),
		CreatedAt: time.Date(2000+r.IntN(40), time.Month(1+r.IntN(12)), 1+r.IntN(28), r.IntN(24), r.IntN(60), r.IntN(60), 0, time.UTC),
	}
	res.Tags = Tags(r)
	if r.IntN(5) > 0 {
		res.Locals = map[string]domain.PriceLine{}
		for range r.IntN(6) {
			res.Locals[Text(r)] = domain.PriceLine{PND: num(r), PD: num(r), PNDI: num(r), PDI: num(r)}
		}
	}
	return res
}
