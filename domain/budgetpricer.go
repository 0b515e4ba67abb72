package domain

import "github.com/shopspring/decimal"

// BudgetPricer computes the figures and reports of budgets from a
// PriceSource. It remembers every record it looks up, every composition it
// prices, explodes or opens, and every line it resolves, so that within one
// BudgetPricer each of them costs one lookup however many lines name it: a
// report's cost grows with the number of lines, not with the lines times the
// depth of their compositions. Use one BudgetPricer per read (one
// transaction), and never keep it across writes.
type BudgetPricer struct {
	src       *memoSource
	pricer    *Pricer
	lines     map[string]*lineInfo
	leaves    map[string]*leaf
	units     map[string]unitLeaves
	opened    map[string][]AnalyticItem
	summaries map[string]CostSummary
	visiting  map[string]bool
	charged   map[string]*chargedCost
}

// NewBudgetPricer returns a BudgetPricer reading from src.
func NewBudgetPricer(src PriceSource) *BudgetPricer {
	m := newMemoSource(src)
	return &BudgetPricer{
		src:       m,
		pricer:    NewPricer(m),
		lines:     map[string]*lineInfo{},
		leaves:    map[string]*leaf{},
		units:     map[string]unitLeaves{},
		opened:    map[string][]AnalyticItem{},
		summaries: map[string]CostSummary{},
		visiting:  map[string]bool{},
		charged:   map[string]*chargedCost{},
	}
}

// lineInfo is what a budget line names, resolved: its record, description,
// unit and unit price in both regimes.
type lineInfo struct {
	ref          BankRef // the edition; Name is MYBASE for the own base
	bankKnown    bool    // the bank is MYBASE or one of the budget's
	description  string
	unit         string
	resourceType int
	price        UnitPrice
	missing      bool
	reason       string           // why it is missing
	lacks        [2]bool          // regimes a bank record has no price in (by Regime)
	lackReason   string           // why, naming them
	sub          []MissingPrice   // an own composition's missing items: its price is incomplete
	own          *Composition     // an own composition line
	bank         *BankComposition // a bank composition line
	// labourBase and labourCharges, on a bank labour resource line priced
	// with the budget's own charges: price = LabourPrice(base, charges).
	labourBase, labourCharges decimal.NullDecimal
}

// lineKey identifies what a line names, whatever budget it is in: a bank
// resource line of a budget with own labour charges is keyed with them (one
// BudgetPricer may price several budgets, with different charges).
func lineKey(b *Budget, n *BudgetNode) (string, BankRef, bool) {
	if n.Bank != BankMyBase && b.LabourCharges.Valid {
		key, ref, ok := lineKey(&Budget{State: b.State, Banks: b.Banks}, n)
		return key + "\x00charges=" + b.LabourCharges.Decimal.String(), ref, ok
	}
	if n.Bank == BankMyBase {
		return string(n.Kind) + "\x00" + BankMyBase + "/" + b.State + "\x00" + n.Code, BankRef{Name: BankMyBase}, true
	}
	ref, ok := b.Bank(n.Bank)
	if !ok {
		return string(n.Kind) + "\x00?" + n.Bank + "\x00" + n.Code, BankRef{Name: n.Bank}, false
	}
	return string(n.Kind) + "\x00" + ref.EditionKey() + "\x00" + n.Code, ref, true
}

// line resolves a budget line. What it names having gone (or an own
// resource having no price in the budget's state) is not an error: the line
// is priced at zero and marked missing, as a composition's items are.
func (bp *BudgetPricer) line(b *Budget, n *BudgetNode) (*lineInfo, error) {
	key, ref, ok := lineKey(b, n)
	if li, found := bp.lines[key]; found {
		return li, nil
	}
	li := &lineInfo{ref: ref, bankKnown: ok}
	if err := bp.resolveLine(li, b.State, b.LabourCharges, n); err != nil {
		return nil, err
	}
	bp.lines[key] = li
	return li, nil
}

func (bp *BudgetPricer) resolveLine(li *lineInfo, state string, charges decimal.NullDecimal, n *BudgetNode) error {
	var reason string
	missing := func(err error) error {
		if ErrorCode(err) == ENOTFOUND {
			li.missing, li.reason = true, reason
			return nil
		}
		return err
	}
	if !li.bankKnown {
		li.missing, li.reason = true, "bank "+n.Bank+" is not one of the budget's banks"
		return nil
	}
	switch {
	case li.ref.Name == BankMyBase && n.Kind == NodeResource:
		reason = "own resource " + n.Code + " no longer exists"
		r, err := bp.src.OwnResource(n.Code)
		if err != nil {
			return missing(err)
		}
		li.description, li.unit, li.resourceType = r.Description, r.Unit, r.Type
		p, ok := r.Locals[state]
		li.price, li.missing = UnitPrice{PND: p.PND, PD: p.PD}, !ok
		if !ok {
			li.reason = "own resource " + n.Code + " has no price for " + state
		}
	case li.ref.Name == BankMyBase:
		reason = "no own composition " + n.Code + " exists in " + state
		c, err := bp.src.OwnComposition(n.Code, state)
		if err != nil {
			return missing(err)
		}
		pc, err := bp.pricer.Price(c)
		if err != nil {
			return err
		}
		li.description, li.unit, li.own = c.Description, c.Unit, c
		li.price = pc.Prices.Unit()
		li.sub = pc.Missing
		li.lacks = pc.Prices.Unpriced
		if li.lacks != [2]bool{} {
			li.lackReason = "own composition " + n.Code + " (" + state + ") has no item priced in the budget's regime"
		}
		if f := c.UnsetFields(); len(f) > 0 {
			// No unit cost: the line is missing, as one whose record is gone.
			li.price, li.missing, li.sub = UnitPrice{}, true, withoutFields(pc.Missing)
			li.reason = "own composition " + n.Code + " (" + state + ") has no unit cost: " + unsetReason(f[0])
		}
	case n.Kind == NodeResource:
		r, err := bp.src.BankResource(li.ref, n.Code)
		if err != nil {
			reason = notInBank(Item{Kind: KindResource, Code: n.Code}, li.ref)
			return missing(err)
		}
		li.description, li.unit, li.resourceType = r.Description, r.Unit, r.Type
		li.price = UnitPrice{PND: r.Prices.PND, PD: r.Prices.PD}
		li.lacks, li.lackReason = lacking(r.Priced, "resource", n.Code, li.ref)
		li.ownCharges(r, charges)
	default:
		c, err := bp.src.BankComposition(li.ref, n.Code)
		if err != nil {
			reason = notInBank(Item{Kind: ItemKind(n.Kind), Code: n.Code}, li.ref)
			return missing(err)
		}
		li.description, li.unit, li.bank = c.Description, c.Unit, c
		li.price = c.Cost
		li.lacks, li.lackReason = lacking(c.Priced, "composition", n.Code, li.ref)
		if charges.Valid && len(c.Items) > 0 {
			cc, err := bp.chargedBankCost(li.ref, n.Code, charges)
			if err != nil {
				return err
			}
			li.price, li.lacks, li.lackReason = cc.price, cc.lacks, cc.lackReason
			li.missing, li.reason = cc.missing, cc.reason
		}
	}
	return nil
}

// missingIn reports whether the line has no price in regime reg, and why.
func (li *lineInfo) missingIn(reg Regime) (bool, string) {
	if li.missing {
		return true, li.reason
	}
	if li.lacks[reg] {
		return true, li.lackReason
	}
	return false, ""
}

// PricedBudget is a budget with its footer.
type PricedBudget struct {
	*Budget
	Totals BudgetTotals
	// Synthetic is the synthetic report the footer comes from, for the
	// figures of one node (Node).
	Synthetic *SyntheticReport
	// Missing lists what the totals could not price (SyntheticReport.Missing):
	// when it is not empty the totals are incomplete.
	Missing []BudgetMissing
}

// Incomplete reports whether some line could not be priced.
func (pb *PricedBudget) Incomplete() bool { return len(pb.Missing) > 0 }

// Price returns the budget with its footer (total, BDI value, total with BDI).
func (bp *BudgetPricer) Price(b *Budget) (*PricedBudget, error) {
	r, err := bp.Synthetic(b)
	if err != nil {
		return nil, err
	}
	return &PricedBudget{Budget: b, Totals: r.BudgetTotals, Synthetic: r, Missing: r.Missing}, nil
}

// memoSource is a PriceSource that asks its source once per question and
// remembers the answer, errors included.
type memoSource struct {
	src      PriceSource
	ownRes   map[string]memo[*Resource]
	ownComp  map[string]memo[*Composition]
	bankRes  map[string]memo[*BankResource]
	bankComp map[string]memo[*BankComposition]
}

type memo[T any] struct {
	v   T
	err error
}

func newMemoSource(src PriceSource) *memoSource {
	return &memoSource{
		src:      src,
		ownRes:   map[string]memo[*Resource]{},
		ownComp:  map[string]memo[*Composition]{},
		bankRes:  map[string]memo[*BankResource]{},
		bankComp: map[string]memo[*BankComposition]{},
	}
}

func remember[T any](m map[string]memo[T], key string, get func() (T, error)) (T, error) {
	if r, ok := m[key]; ok {
		return r.v, r.err
	}
	v, err := get()
	m[key] = memo[T]{v, err}
	return v, err
}

func (s *memoSource) OwnResource(code string) (*Resource, error) {
	return remember(s.ownRes, code, func() (*Resource, error) { return s.src.OwnResource(code) })
}

func (s *memoSource) OwnComposition(code, state string) (*Composition, error) {
	return remember(s.ownComp, state+"\x00"+code, func() (*Composition, error) { return s.src.OwnComposition(code, state) })
}

func (s *memoSource) BankResource(ref BankRef, code string) (*BankResource, error) {
	return remember(s.bankRes, ref.EditionKey()+"\x00"+code, func() (*BankResource, error) { return s.src.BankResource(ref, code) })
}

func (s *memoSource) BankComposition(ref BankRef, code string) (*BankComposition, error) {
	return remember(s.bankComp, ref.EditionKey()+"\x00"+code, func() (*BankComposition, error) { return s.src.BankComposition(ref, code) })
}
