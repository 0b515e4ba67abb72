package domain

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
)

// PriceSource finds what the items of a composition refer to. Each method
// returns an ENOTFOUND *Error when there is no such record. Implementations
// read a store; the pricing itself stays here.
type PriceSource interface {
	// OwnResource returns the company's own resource with the code.
	OwnResource(code string) (*Resource, error)
	// OwnComposition returns the company's own composition with the code in the state.
	OwnComposition(code, state string) (*Composition, error)
	// BankResource returns the resource with the code in the edition ref names.
	BankResource(ref BankRef, code string) (*BankResource, error)
	// BankComposition returns the composition with the code in the edition ref names.
	BankComposition(ref BankRef, code string) (*BankComposition, error)
}

// PricedItem is an item with what it refers to and its prices.
type PricedItem struct {
	Item
	Description  string
	Unit         string
	Type         string    // resource type number as text, or composition class
	ResourceType int       // resource type; 0 for a composition
	UnitPrice    UnitPrice // unit price (for equipment: productive hourly cost)
	IdlePrice    UnitPrice // equipment only: idle hourly cost
	Total        UnitPrice // line total, cut by the composition's rounding method
	Section      string    // SICRO model: A, B, C, D, E (fixed time and transport) or O (other)
	// Missing says the item lacks a price: what it names no longer exists,
	// its bank is not attached, an own resource has no price in the
	// composition's state, or a bank record was published without one
	// regime (Unpriced says which). What it lacks adds nothing to the
	// composition's price, which is then incomplete
	// (PricedComposition.Missing), and the API shows it as null, never 0.
	Missing bool
	Reason  string // why the item is missing
	// Unpriced says, per regime (indexed by Regime), which prices the item
	// lacks: both for an item whose record is gone, one for a bank record
	// published in one regime only (Priced).
	Unpriced [2]bool
	// LabourBase and LabourCharges, on a bank labour resource priced with
	// the composition's own charges (Composition.LabourCharges), are its
	// price without charges and the percentage applied: UnitPrice is
	// LabourPrice(LabourBase, LabourCharges). Not Valid otherwise.
	LabourBase, LabourCharges decimal.NullDecimal
	// subMissing are the missing items of an own composition item, listed
	// again by the composition that holds it.
	subMissing []MissingPrice
}

// Priced reports whether the item has a price in regime r.
func (pi *PricedItem) Priced(r Regime) bool { return !pi.Unpriced[r] }

// lacking returns which regimes a bank record lacks, and a reason naming
// them ("" when it has both).
// what and code name the record ("resource", "88316"); the reason is
// built only when something lacks.
func lacking(priced func(Regime) bool, what, code string, ref BankRef) ([2]bool, string) {
	var lacks [2]bool
	var names []string
	for _, g := range []Regime{NaoDesonerado, Desonerado} {
		if !priced(g) {
			lacks[g] = true
			names = append(names, regimeLabel(g))
		}
	}
	if names == nil {
		return lacks, ""
	}
	return lacks, what + " " + code + " has no " + strings.Join(names, " and ") + " price in " + ref.Label()
}

// regimeLabel names a regime for a message.
func regimeLabel(g Regime) string {
	if g == Desonerado {
		return "desonerado"
	}
	return "não desonerado"
}

// MissingPrice names something a priced read could not price: a line of a
// composition, or of a composition inside it, or of a budget.
type MissingPrice struct {
	Bank   string   // MYBASE for the own base
	Code   string   //
	Kind   ItemKind // resource or composition
	Reason string   // why, naming the edition or state it lacks
	// Field, when set, names a field of the composition itself (Bank
	// MYBASE, Code its code) that must be set before it has a unit cost
	// (Composition.UnsetFields): its prices are then unknown (null).
	Field string
	// Unpriced says which regimes (indexed by Regime) lack the price: both
	// for a record gone, one for a record published in one regime only.
	Unpriced [2]bool
}

// Prices are the price figures of a composition. The SINAPI model fills only
// PND and PD; the SICRO model fills every key (docs/decisions.md defines each).
type Prices struct {
	PND, PD           decimal.Decimal // unit cost
	ChDeEq, ChdDeEq   decimal.Decimal // A: equipment hourly cost
	ChiDeEq, ChdiDeEq decimal.Decimal // idle part of A
	ChDaMo, ChdDaMo   decimal.Decimal // B: labour hourly cost
	CHE, CHDE         decimal.Decimal // hourly execution cost: A + B + labour addition
	ChIncidencia      decimal.Decimal // labour addition on B (não desonerado)
	CTF, CTFD         decimal.Decimal // fixed time and transport (E)
	CUOI, CUOID       decimal.Decimal // other inputs
	CCA, CCAD         decimal.Decimal // auxiliary activities (D)
	CUMO              decimal.Decimal // materials (C)
	CUE, CUED         decimal.Decimal // unit execution cost: CHE / team production
	FICCost, FICCostD decimal.Decimal // CUE × FIC
	LaborAdditionD    decimal.Decimal // labour addition on B (desonerado)
	// Unpriced says, per regime (indexed by Regime), that the unit cost
	// (PND, PD) cannot be given: the composition lacks a field it needs
	// (Composition.UnsetFields), or a bank composition shown as one
	// (BankCompositionView) has no published cost in that regime. Shown as
	// null, never 0.
	Unpriced [2]bool
}

// Unit returns the unit cost of the composition in both regimes.
func (p Prices) Unit() UnitPrice { return UnitPrice{PND: p.PND, PD: p.PD} }

// PricedComposition is a composition with its items priced and its totals.
type PricedComposition struct {
	*Composition
	Items  []PricedItem
	Prices Prices
	// Missing lists every item without a price, its own and those of the own
	// compositions among its items (their reasons say through which one).
	// When it is not empty the prices leave those items out: incomplete.
	Missing []MissingPrice
}

// Incomplete reports whether some item could not be priced.
func (pc *PricedComposition) Incomplete() bool { return len(pc.Missing) > 0 }

// Pricer prices compositions from a PriceSource. Own compositions nested in
// each other are priced once each (results are kept for the Pricer's life,
// so use one Pricer per read) and a cycle is an ECONFLICT error.
type Pricer struct {
	src      PriceSource
	done     map[string]*PricedComposition
	visiting map[string]bool
}

// NewPricer returns a Pricer reading from src.
func NewPricer(src PriceSource) *Pricer {
	return &Pricer{src: src, done: map[string]*PricedComposition{}, visiting: map[string]bool{}}
}

// Price computes the items and the prices of c.
func (p *Pricer) Price(c *Composition) (*PricedComposition, error) {
	if c.ID != "" {
		if pc, ok := p.done[c.ID]; ok {
			return pc, nil
		}
		if p.visiting[c.ID] {
			return nil, Errorf(ECONFLICT, "composition %s contains itself", c.Code)
		}
		p.visiting[c.ID] = true
		defer delete(p.visiting, c.ID)
	}
	items := make([]PricedItem, len(c.Items))
	for i, it := range c.Items {
		pi, err := p.resolve(c, it)
		if err != nil {
			return nil, err
		}
		if pi.Missing && pi.Unpriced == [2]bool{} {
			pi.Unpriced = [2]bool{true, true}
		}
		items[i] = pi
	}
	var pc *PricedComposition
	if c.IsSicro {
		pc = priceSicro(c, items)
	} else {
		pc = priceSinapi(c, items)
	}
	pc.Prices.Unpriced = noItemPriced(items)
	for _, f := range c.UnsetFields() {
		pc.Prices.Unpriced = [2]bool{true, true}
		pc.Missing = append(pc.Missing, MissingPrice{Bank: BankMyBase, Code: c.Code, Kind: KindComposition, Field: f,
			Reason: unsetReason(f), Unpriced: [2]bool{true, true}})
	}
	for _, it := range items {
		if it.Missing {
			pc.Missing = append(pc.Missing, MissingPrice{Bank: it.Bank, Code: it.Code, Kind: it.Kind, Reason: it.Reason, Unpriced: it.Unpriced})
		}
		for _, m := range it.subMissing {
			m.Reason = "in own composition " + it.Code + " (" + c.State + "): " + m.Reason
			pc.Missing = append(pc.Missing, m)
		}
	}
	if c.ID != "" {
		p.done[c.ID] = pc
	}
	return pc, nil
}

// resolve finds what the item refers to and fills its description and unit prices.
func (p *Pricer) resolve(c *Composition, it Item) (PricedItem, error) {
	pi := PricedItem{Item: it}
	var reason string
	missing := func(err error) (PricedItem, error) {
		if ErrorCode(err) == ENOTFOUND {
			pi.Missing, pi.Reason = true, reason
			return pi, nil
		}
		return pi, err
	}
	if it.IsOwn() {
		switch it.Kind {
		case KindResource:
			r, err := p.src.OwnResource(it.Code)
			if err != nil {
				reason = "own resource " + it.Code + " no longer exists"
				return missing(err)
			}
			fillOwnResource(&pi, r, c.State)
			if _, ok := r.Locals[c.State]; !ok {
				pi.Missing, pi.Reason = true, "own resource "+it.Code+" has no price for "+c.State
			}
		default:
			sub, err := p.src.OwnComposition(it.Code, c.State)
			if err != nil {
				reason = "no own composition " + it.Code + " exists in " + c.State
				return missing(err)
			}
			spc, err := p.Price(sub)
			if err != nil {
				return pi, err
			}
			pi.Description, pi.Unit, pi.Type = sub.Description, sub.Unit, sub.Type
			pi.UnitPrice = spc.Prices.Unit()
			pi.subMissing = spc.Missing
			// A regime none of its items has a price in (an edition
			// imported in one regime) leaves it without a price there:
			// null, its items listed through subMissing.
			pi.Unpriced = spc.Prices.Unpriced
			if f := sub.UnsetFields(); len(f) > 0 {
				// Without a unit cost of its own the item has no price;
				// its own entry says why, so the sub-composition's field
				// entries are not listed again.
				pi.Missing, pi.Unpriced, pi.UnitPrice = true, [2]bool{true, true}, UnitPrice{}
				pi.Reason = "own composition " + it.Code + " (" + c.State + ") has no unit cost: " + unsetReason(f[0])
				pi.subMissing = withoutFields(spc.Missing)
			}
		}
		return pi, nil
	}
	ref, ok := c.Bank(it.Bank)
	if !ok {
		pi.Missing, pi.Reason = true, "bank "+it.Bank+" is not attached to the composition"
		return pi, nil
	}
	switch it.Kind {
	case KindResource:
		r, err := p.src.BankResource(ref, it.Code)
		if err != nil {
			reason = notInBank(it, ref)
			return missing(err)
		}
		pi.Description, pi.Unit, pi.ResourceType = r.Description, r.Unit, r.Type
		pi.Type = strconv.Itoa(r.Type)
		pi.UnitPrice = UnitPrice{PND: r.Prices.PND, PD: r.Prices.PD}
		pi.IdlePrice = UnitPrice{PND: r.Prices.PNDI, PD: r.Prices.PDI}
		pi.Unpriced, pi.Reason = lacking(r.Priced, "resource", it.Code, ref)
		ownCharges(&pi, r, c.LabourCharges, ref)
	default:
		bc, err := p.src.BankComposition(ref, it.Code)
		if err != nil {
			reason = notInBank(it, ref)
			return missing(err)
		}
		pi.Description, pi.Unit, pi.Type = bc.Description, bc.Unit, bc.Class
		pi.UnitPrice = bc.Cost
		pi.Unpriced, pi.Reason = lacking(bc.Priced, "composition", it.Code, ref)
	}
	pi.Missing = pi.Reason != ""
	return pi, nil
}

// noItemPriced says, per regime, that none of the composition's items has a
// price in that regime while some has one in the other (an edition
// imported in one regime): its price there is unknown (null), not 0. A
// composition some of whose items are priced in a regime keeps the sum of
// those, flagged incomplete by its missing list, and so does one none of
// whose items is priced in either regime (the sum of what could be priced,
// nothing).
func noItemPriced(items []PricedItem) [2]bool {
	var priced [2]bool
	for i := range items {
		for _, g := range []Regime{NaoDesonerado, Desonerado} {
			priced[g] = priced[g] || items[i].Priced(g) // Price marks a missing item unpriced in both
		}
	}
	if priced[NaoDesonerado] == priced[Desonerado] {
		return [2]bool{}
	}
	return [2]bool{!priced[NaoDesonerado], !priced[Desonerado]}
}

// unsetReason is the reason of a composition without a field it needs.
func unsetReason(field string) string {
	return field + " is not set (0): a SICRO-model composition's unit cost divides by it"
}

// withoutFields is ms without the entries that name a field.
func withoutFields(ms []MissingPrice) []MissingPrice {
	var out []MissingPrice
	for _, m := range ms {
		if m.Field == "" {
			out = append(out, m)
		}
	}
	return out
}

// notInBank is the reason of a bank item whose record is not in the
// edition.
func notInBank(it Item, ref BankRef) string {
	return string(it.Kind) + " " + it.Code + " does not exist in " + ref.Label()
}

func fillOwnResource(pi *PricedItem, r *Resource, state string) {
	pi.Description, pi.Unit, pi.ResourceType = r.Description, r.Unit, r.Type
	pi.Type = strconv.Itoa(r.Type)
	line := r.Locals[state]
	pi.UnitPrice = UnitPrice{PND: line.PND, PD: line.PD}
	pi.IdlePrice = UnitPrice{PND: line.PNDI, PD: line.PDI}
}

// LineTotal is coefficient × unit price, cut by the method: the total of one
// line of a composition.
func LineTotal(m RoundingMethod, coefficient, unitPrice decimal.Decimal) decimal.Decimal {
	return m.mul(amountOf(coefficient), amountOf(unitPrice)).Decimal()
}

// mul is a × b cut by the method (mulCut): the one line total.
func (m RoundingMethod) mul(a, b amount) amount {
	places, mode := m.cut()
	return mulCut(a, b, places, mode)
}

// cut is how the method cuts a line total.
func (m RoundingMethod) cut() (int32, cutMode) {
	switch m {
	case RoundHalfUp2:
		return 2, cutRound
	case Truncate2:
		return 2, cutTruncate
	case Truncate4:
		return 4, cutTruncate
	}
	return 0, cutNone // NoRounding (and what Apply leaves alone): the exact product
}

// priceSinapi applies the SINAPI model: every line total is cut by the
// composition's rounding method, and the price is the sum of the lines.
func priceSinapi(c *Composition, items []PricedItem) *PricedComposition {
	var nd, d amount
	for i := range items {
		it := &items[i]
		q := amountOf(it.Quantity)
		tnd, td := c.Rounding.mul(q, amountOf(it.UnitPrice.PND)), c.Rounding.mul(q, amountOf(it.UnitPrice.PD))
		it.Total = UnitPrice{PND: tnd.Decimal(), PD: td.Decimal()}
		nd, d = nd.add(tnd), d.add(td)
	}
	return &PricedComposition{Composition: c, Items: items, Prices: Prices{PND: nd.Decimal(), PD: d.Decimal()}}
}
