package domain

import (
	"math"
	"math/bits"
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
	if d, ok := lineTotalInt64(m, coefficient, unitPrice); ok {
		return d
	}
	return m.Apply(coefficient.Mul(unitPrice))
}

// lineTotalInt64 is LineTotal computed on 64-bit coefficients, when both
// factors and their product fit: the same value with the same exponent
// (a test holds it to the decimal path), without big.Int arithmetic.
func lineTotalInt64(m RoundingMethod, a, b decimal.Decimal) (decimal.Decimal, bool) {
	x, ok := coefficient64(a)
	if !ok {
		return decimal.Decimal{}, false
	}
	y, ok := coefficient64(b)
	if !ok {
		return decimal.Decimal{}, false
	}
	neg := (x < 0) != (y < 0)
	hi, lo := bits.Mul64(absU64(x), absU64(y))
	if hi != 0 || lo > math.MaxInt64 {
		return decimal.Decimal{}, false
	}
	p, e := int64(lo), a.Exponent()+b.Exponent()
	if neg {
		p = -p
	}
	switch m {
	case Truncate2, Truncate4:
		places := int32(2)
		if m == Truncate4 {
			places = 4
		}
		if e >= -places { // Truncate keeps what has no more places
			return decimal.New(p, e), true
		}
		return decimal.New(divPow10(p, -places-e), -places), true
	case RoundHalfUp2:
		switch {
		case e == -2:
			return decimal.New(p, e), true
		case e > -2: // Round writes 2 places
			if e+2 > 18 {
				return decimal.Decimal{}, false
			}
			hi, lo := bits.Mul64(absU64(p), pow10u[e+2])
			if hi != 0 || lo > math.MaxInt64 {
				return decimal.Decimal{}, false
			}
			v := int64(lo)
			if p < 0 {
				v = -v
			}
			return decimal.New(v, -2), true
		default: // to 3 places, truncated, then half away from zero
			t := divPow10(p, -3-e)
			q, r := t/10, t%10
			if r >= 5 {
				q++
			} else if r <= -5 {
				q--
			}
			return decimal.New(q, -2), true
		}
	default: // NoRounding (and what Apply leaves alone): the exact product
		return decimal.New(p, e), true
	}
}

// sum64 adds decimals as decimal.Decimal.Add does from zero (the exponent
// the least of 0 and theirs), on a 64-bit coefficient while everything
// fits; ok reports whether it did.
type sum64 struct {
	v        int64
	e        int32
	overflow bool
}

func (s *sum64) add(d decimal.Decimal) {
	if s.overflow {
		return
	}
	c, ok := coefficient64(d)
	if !ok {
		s.overflow = true
		return
	}
	if de := d.Exponent(); de < s.e {
		if s.v, ok = mulPow10(s.v, s.e-de); !ok {
			s.overflow = true
			return
		}
		s.e = de
	} else if c, ok = mulPow10(c, de-s.e); !ok {
		s.overflow = true
		return
	}
	if !addInt64(&s.v, c) {
		s.overflow = true
	}
}

func (s *sum64) ok() bool { return !s.overflow }

func (s *sum64) decimal() decimal.Decimal { return decimal.New(s.v, s.e) }

// mulPow10 is v × 10^k (k ≥ 0), false when it does not fit.
func mulPow10(v int64, k int32) (int64, bool) {
	if k == 0 || v == 0 {
		return v, true
	}
	if k > 18 {
		return 0, false
	}
	hi, lo := bits.Mul64(absU64(v), pow10u[k])
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if v < 0 {
		return -int64(lo), true
	}
	return int64(lo), true
}

// coefficient64 is d's coefficient when it has at most 18 digits.
func coefficient64(d decimal.Decimal) (int64, bool) {
	if d.NumDigits() > 18 {
		return 0, false
	}
	return d.CoefficientInt64(), true
}

func absU64(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

// divPow10 is v / 10^k truncated toward zero (k > 0): 0 past 18 digits.
func divPow10(v int64, k int32) int64 {
	if k > 18 {
		return 0
	}
	return v / int64(pow10u[k])
}

// priceSinapi applies the SINAPI model: every line total is cut by the
// composition's rounding method, and the price is the sum of the lines.
func priceSinapi(c *Composition, items []PricedItem) *PricedComposition {
	var nd, d sum64
	for i := range items {
		it := &items[i]
		it.Total = UnitPrice{
			PND: LineTotal(c.Rounding, it.Quantity, it.UnitPrice.PND),
			PD:  LineTotal(c.Rounding, it.Quantity, it.UnitPrice.PD),
		}
		nd.add(it.Total.PND)
		d.add(it.Total.PD)
	}
	var sum UnitPrice
	if nd.ok() && d.ok() {
		sum = UnitPrice{PND: nd.decimal(), PD: d.decimal()}
	} else {
		for _, it := range items {
			sum = sum.Add(it.Total)
		}
	}
	return &PricedComposition{Composition: c, Items: items, Prices: Prices{PND: sum.PND, PD: sum.PD}}
}
