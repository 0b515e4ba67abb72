package domain

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Amendment is a contract's amendment (termo aditivo): quantities added to
// or removed from its lines, and new lines. It is approved like a
// measurement (draft → submitted → approved, or rejected back to draft) and
// only an approved amendment changes the balances.
type Amendment struct {
	ID          string
	CompanyID   string
	ContractID  string
	Number      int
	Description string
	Changes     []AmendmentChange
	// NewLines are priced by the caller (the contract's editions or the own
	// base, unit price without BDI); their unit price with BDI is computed
	// here by the contract's BDIRule (PriceNewLines).
	NewLines     []ContractLine
	Status       RecordStatus
	RejectReason string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// AmendmentChange adds (Quantity > 0) or removes (Quantity < 0) quantity
// of a line.
type AmendmentChange struct {
	LineID   string
	Quantity decimal.Decimal
}

func (a *Amendment) flow() *workflow {
	return &workflow{Status: a.Status, RejectReason: a.RejectReason}
}

func (a *Amendment) set(w *workflow) { a.Status, a.RejectReason = w.Status, w.RejectReason }

// Editable returns an ECONFLICT error unless the amendment is a draft.
func (a *Amendment) Editable() error { return a.flow().editable("amendment", a.Number) }

// Submit moves a draft to submitted.
func (a *Amendment) Submit() error {
	w := a.flow()
	err := w.submit("amendment", a.Number)
	a.set(w)
	return err
}

// Approve moves a submitted amendment to approved.
func (a *Amendment) Approve() error {
	w := a.flow()
	err := w.approve("amendment", a.Number)
	a.set(w)
	return err
}

// Reject sends a submitted amendment back to draft with the reason.
func (a *Amendment) Reject(reason string) error {
	w := a.flow()
	err := w.reject("amendment", a.Number, reason)
	a.set(w)
	return err
}

// PriceNewLines gives the amendment's new lines their IDs ("A<n>.<i>"),
// numbers and unit price with BDI by the contract's rule (the unit price
// with BDI of a line of quantity 1).
func (a *Amendment) PriceNewLines(c *Contract) {
	for i := range a.NewLines {
		l := &a.NewLines[i]
		l.ID = fmt.Sprintf("A%d.%d", a.Number, i+1)
		l.Number = l.ID
		l.Amendment = a.Number
		l.Stage, l.StageName = "A", "Aditivos"
		f := c.BDI.Line(l.UnitPrice, decimal.NewFromInt(1))
		l.UnitPriceWithBDI = f.UnitPriceWithBDI
	}
}

// amendmentValues are the value of what an amendment adds (added quantity
// and new lines) and of what it removes, each line by Contract.Value.
func (s *ContractState) amendmentValues(a *Amendment) (add, red decimal.Decimal) {
	for _, ch := range a.Changes {
		l, ok := s.line(ch.LineID)
		if !ok {
			continue
		}
		if ch.Quantity.IsNegative() {
			red = red.Add(s.Contract.Value(l, ch.Quantity.Neg()))
		} else {
			add = add.Add(s.Contract.Value(l, ch.Quantity))
		}
	}
	for i := range a.NewLines {
		add = add.Add(s.Contract.Value(&a.NewLines[i], a.NewLines[i].Quantity))
	}
	return add, red
}

func (s *ContractState) apply(a *Amendment) {
	for _, ch := range a.Changes {
		s.Contracted[ch.LineID] = s.Contracted[ch.LineID].Add(ch.Quantity)
	}
	for _, l := range a.NewLines {
		s.Lines = append(s.Lines, l)
		s.Contracted[l.ID] = l.Quantity
	}
	s.index = nil // line finds the new lines
}

// The limits of Lei 14.133/2021 art. 125, in percent of the updated initial
// value.
var (
	AdditionLimit           = decimal.NewFromInt(25)
	RenovationAdditionLimit = decimal.NewFromInt(50)
	ReductionLimit          = decimal.NewFromInt(25)
)

// AmendmentLimits are the figures an amendment is checked against.
type AmendmentLimits struct {
	Base          decimal.Decimal // the updated initial value
	Additions     decimal.Decimal // approved before, plus this amendment's
	Reductions    decimal.Decimal
	AdditionPct   decimal.Decimal // the limit in percent
	MaxAdditions  decimal.Decimal // Base × AdditionPct / 100, exact
	MaxReductions decimal.Decimal
}

// CheckAmendment checks an amendment (its new lines priced) against the
// state (the approved amendments applied) and the measured quantities
// (approved measurements): every line it names exists, no removal leaves
// less than what was measured, new lines are whole; then the additions and
// the reductions, each accumulated with the approved ones separately (no
// netting), against the updated initial value base (the contract's initial
// value until readjusted): additions ≤ 25% (50% for a renovation),
// reductions ≤ 25%, compared exactly. Every error at once; the figures
// are returned for the answer.
func (s *ContractState) CheckAmendment(a *Amendment, measured map[string]decimal.Decimal, base decimal.Decimal) (AmendmentLimits, error) {
	var v Validation
	if len(a.Changes) == 0 && len(a.NewLines) == 0 {
		v.Add("/changes", "an amendment changes at least one line or adds one")
	}
	seen := map[string]bool{}
	for i, ch := range a.Changes {
		ptr := fmt.Sprintf("/changes/%d", i)
		l, ok := s.line(ch.LineID)
		switch {
		case !ok:
			v.Add(ptr+"/line", "the contract has no line %s", ch.LineID)
			continue
		case seen[ch.LineID]:
			v.Add(ptr+"/line", "%s is changed twice in this amendment", lineLabel(l))
			continue
		case ch.Quantity.IsZero():
			v.Add(ptr+"/quantity", "must not be zero (positive adds, negative removes)")
		}
		seen[ch.LineID] = true
		if ch.Quantity.IsNegative() {
			bal := s.Contracted[ch.LineID].Sub(measured[ch.LineID])
			if ch.Quantity.Neg().GreaterThan(bal) {
				v.Add(ptr+"/quantity", "%s: removing %s exceeds the line's balance of %s %s", lineLabel(l), ch.Quantity.Neg().String(), bal.String(), l.Unit)
			}
		}
	}
	for i, l := range a.NewLines {
		ptr := fmt.Sprintf("/new_lines/%d", i)
		if strings.TrimSpace(l.Code) == "" {
			v.Add(ptr+"/code", "is required")
		}
		if !l.Quantity.IsPositive() {
			v.Add(ptr+"/quantity", "must be positive")
		}
	}
	add, red := s.amendmentValues(a)
	lim := AmendmentLimits{Base: base, Additions: s.Additions.Add(add), Reductions: s.Reductions.Add(red), AdditionPct: AdditionLimit}
	if s.Contract.Renovation {
		lim.AdditionPct = RenovationAdditionLimit
	}
	lim.MaxAdditions = base.Mul(lim.AdditionPct).Shift(-2)
	lim.MaxReductions = base.Mul(ReductionLimit).Shift(-2)
	if lim.Additions.GreaterThan(lim.MaxAdditions) {
		v.Add("/changes", "additions would total R$ %s, over the limit of %s%% of the updated initial value R$ %s: R$ %s (Lei 14.133/2021 art. 125)",
			lim.Additions.StringFixed(2), lim.AdditionPct, base.StringFixed(2), lim.MaxAdditions.String())
	}
	if lim.Reductions.GreaterThan(lim.MaxReductions) {
		v.Add("/changes", "reductions would total R$ %s, over the limit of 25%% of the updated initial value R$ %s: R$ %s (Lei 14.133/2021 art. 125)",
			lim.Reductions.StringFixed(2), base.StringFixed(2), lim.MaxReductions.String())
	}
	return lim, v.Err()
}
