package domain

import "github.com/shopspring/decimal"

// SICRO sections of a composition, as DNIT's analytic report lays them out.
const (
	SectionEquipment = "A" // equipment: hourly cost of the team's machines
	SectionLabor     = "B" // labour: hourly cost of the team's people
	SectionMaterial  = "C" // materials, per unit of service
	SectionAuxiliary = "D" // auxiliary activities: other compositions
	SectionTransport = "E" // fixed time and transport
	SectionOther     = "O" // any other input, per unit of service
)

// SicroSection tells which section of a SICRO-model composition an item
// falls in, from its kind and resource type.
func SicroSection(it PricedItem) string {
	if it.Kind == KindComposition {
		return SectionAuxiliary
	}
	switch it.ResourceType {
	case TypeEquipment, TypePermanentEquipment:
		return SectionEquipment
	case TypeLabor:
		return SectionLabor
	case TypeMaterial:
		return SectionMaterial
	case TypeTransport:
		return SectionTransport
	}
	return SectionOther
}

var (
	one     = decimal.NewFromInt(1)
	hundred = decimal.NewFromInt(100)
)

func trunc4(d decimal.Decimal) decimal.Decimal { return Truncate4.Apply(d) }

// sicroFigures are the section figures of one regime.
type sicroFigures struct {
	a, aIdle, b, addition, che, cue, fic, c, d, e, other, unit decimal.Decimal
}

// priceSicro applies the SICRO model (DOMAIN.md):
//
//	A   = Σ trunc₄(q · (u·CHP + (1−u)·CHI))   equipment, u = operating share
//	B   = Σ trunc₄(q · hourly labour cost)
//	ADD = trunc₄(B · labour addition / 100)
//	CHE = A + B + ADD                         hourly execution cost
//	CUE = trunc₄(CHE / team production)       unit execution cost
//	FIC = trunc₄(CUE · fic)                   rain factor cost
//	C, D, E, O = Σ trunc₄(q · unit price)     materials, auxiliary, transport, other
//	unit cost = rounding(CUE + FIC + C + D + E + O)
//
// SICRO carries 4 places throughout (checked on DNIT's labour and equipment
// costs); the composition's rounding method cuts the unit cost.
func priceSicro(c *Composition, items []PricedItem) *PricedComposition {
	var fig [2]sicroFigures
	for _, r := range []Regime{NaoDesonerado, Desonerado} {
		f := &fig[r]
		for i := range items {
			it := &items[i]
			it.Section = SicroSection(*it)
			q := it.Quantity
			var line decimal.Decimal
			switch it.Section {
			case SectionEquipment:
				u := one
				if it.Utilization.Valid {
					u = it.Utilization.Decimal
				}
				idle := trunc4(q.Mul(one.Sub(u)).Mul(it.IdlePrice.In(r)))
				line = trunc4(q.Mul(u.Mul(it.UnitPrice.In(r)).Add(one.Sub(u).Mul(it.IdlePrice.In(r)))))
				f.a = f.a.Add(line)
				f.aIdle = f.aIdle.Add(idle)
			default:
				line = LineTotal(Truncate4, q, it.UnitPrice.In(r))
				switch it.Section {
				case SectionLabor:
					f.b = f.b.Add(line)
				case SectionMaterial:
					f.c = f.c.Add(line)
				case SectionAuxiliary:
					f.d = f.d.Add(line)
				case SectionTransport:
					f.e = f.e.Add(line)
				default:
					f.other = f.other.Add(line)
				}
			}
			if r == Desonerado {
				it.Total.PD = line
			} else {
				it.Total.PND = line
			}
		}
		f.addition = trunc4(f.b.Mul(c.LaborAddition).Div(hundred))
		f.che = f.a.Add(f.b).Add(f.addition)
		if c.TeamProduction.IsPositive() {
			// QuoRem truncates the quotient at 4 places exactly, with no
			// intermediate rounding.
			f.cue, _ = f.che.QuoRem(c.TeamProduction, 4)
		}
		f.fic = trunc4(f.cue.Mul(c.FIC))
		f.unit = c.Rounding.Apply(f.cue.Add(f.fic).Add(f.c).Add(f.d).Add(f.e).Add(f.other))
	}
	nd, d := fig[NaoDesonerado], fig[Desonerado]
	return &PricedComposition{Composition: c, Items: items, Prices: Prices{
		PND: nd.unit, PD: d.unit,
		ChDeEq: nd.a, ChdDeEq: d.a,
		ChiDeEq: nd.aIdle, ChdiDeEq: d.aIdle,
		ChDaMo: nd.b, ChdDaMo: d.b,
		CHE: nd.che, CHDE: d.che,
		ChIncidencia: nd.addition, LaborAdditionD: d.addition,
		CTF: nd.e, CTFD: d.e,
		CUOI: nd.other, CUOID: d.other,
		CCA: nd.d, CCAD: d.d,
		CUMO: nd.c,
		CUE:  nd.cue, CUED: d.cue,
		FICCost: nd.fic, FICCostD: d.fic,
	}}
}
