package domain

import (
	"strings"
	"unicode"

	"github.com/shopspring/decimal"
)

// SyntheticRow is one row of a synthetic report: a stage with its
// subtotals, or a line with its figures.
type SyntheticRow struct {
	NodeID string
	Number string // "1", "1.1", "1.1.2"
	Depth  int    // 1 for the top level
	Kind   NodeKind
	// Lines only: what the line names. Month is the edition's month ("" for
	// the own base).
	Bank        string
	Month       string
	Code        string
	Unit        string
	Quantity    decimal.Decimal
	Description string // a stage's own; a line's from what it names
	// A line's figures (BDIRule.Line); a stage carries only Total and
	// TotalWithBDI, the sums of its lines.
	LineFigures
	// Weight is the row's total without BDI as a percent of the budget's,
	// rounded half up to 2 places (0 when the budget totals zero). Weights
	// are rounded one by one, so the lines' weights may add up to 100 ± a
	// few hundredths.
	Weight  decimal.Decimal
	Missing bool // what the line names no longer exists: priced at zero
	// Supply is true for a line priced with the differentiated BDI.
	Supply bool
}

// SyntheticReport is the synthetic report (orçamento sintético) of a
// budget: one row per stage and line, in tree order, and the footer.
type SyntheticReport struct {
	Budget *Budget
	Rows   []SyntheticRow
	BudgetTotals
	// Missing lists the lines without a price and the missing items of the
	// own compositions lines name: when it is not empty the totals leave
	// them out (incomplete).
	Missing []BudgetMissing
	// A streamed report (SyntheticStream) has no Rows: Each hands them out.
	stream *syntheticStream
	rows   int
	check  func() error // Interrupt's
}

// BudgetMissing is something a budget report could not price: a line, or
// an item inside what a line names (its reason says which).
type BudgetMissing struct {
	NodeID string
	Number string
	MissingPrice
}

// Incomplete reports whether some line could not be priced.
func (r *SyntheticReport) Incomplete() bool { return len(r.Missing) > 0 }

// Synthetic computes the synthetic report of the budget with its rows
// held (Rows): each line priced in the budget's regime (an own composition
// at its computed price, a bank composition at its published cost, a
// resource at its price in the state or edition), its figures by the
// budget's BDIRule, stages' subtotals and the footer. It is SyntheticStream
// over the budget's tree, its rows kept.
func (bp *BudgetPricer) Synthetic(b *Budget) (*SyntheticReport, error) {
	r, err := bp.syntheticStream(b, b.Walk, nil, b.Walk)
	if err != nil {
		return nil, err
	}
	rows := make([]SyntheticRow, 0, r.rows)
	if err := r.Each(func(row *SyntheticRow) error { rows = append(rows, *row); return nil }); err != nil {
		return nil, err
	}
	r.Rows = rows
	return r, nil
}

// CostCategory is what an amount pays for, in a summary.
type CostCategory string

// The categories.
const (
	CategoryLabor     CostCategory = "labor"
	CategoryMaterial  CostCategory = "material"
	CategoryEquipment CostCategory = "equipment"
	// CategoryServices is services and everything else.
	CategoryServices CostCategory = "services"
)

// Category returns the category of a leaf of an explosion. A resource goes
// by its type: 3 labour, 4 material, 1 and 2 equipment, any other
// services. A composition that stays whole (a bank composition whose
// structure was not imported) goes by SINAPI's naming, our definition:
// "… COM ENCARGOS COMPLEMENTARES" (a worker's hour with charges) is labour,
// a description with the word CHP or CHI (an equipment's productive or idle
// hourly cost) equipment, anything else services.
func Category(kind ItemKind, resourceType int, description string) CostCategory {
	if kind == KindComposition {
		d := strings.ToUpper(description)
		if strings.Contains(d, "COM ENCARGOS COMPLEMENTARES") {
			return CategoryLabor
		}
		for _, w := range strings.FieldsFunc(d, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			if w == "CHP" || w == "CHI" {
				return CategoryEquipment
			}
		}
		return CategoryServices
	}
	switch resourceType {
	case TypeLabor:
		return CategoryLabor
	case TypeMaterial:
		return CategoryMaterial
	case TypeEquipment, TypePermanentEquipment:
		return CategoryEquipment
	}
	return CategoryServices
}

// CostSummary splits an amount by category.
type CostSummary struct {
	Labor     decimal.Decimal
	Material  decimal.Decimal
	Equipment decimal.Decimal
	Services  decimal.Decimal // services and everything else
}

// Total is the sum of the four parts.
func (s CostSummary) Total() decimal.Decimal {
	return s.Labor.Add(s.Material).Add(s.Equipment).Add(s.Services)
}

func (s *CostSummary) add(c CostCategory, amount decimal.Decimal) {
	switch c {
	case CategoryLabor:
		s.Labor = s.Labor.Add(amount)
	case CategoryMaterial:
		s.Material = s.Material.Add(amount)
	case CategoryEquipment:
		s.Equipment = s.Equipment.Add(amount)
	default:
		s.Services = s.Services.Add(amount)
	}
}

// AnalyticItem is an item of a composition in an analytic report, opened
// when it is a composition: an own one always, a bank one where its
// published structure was imported.
type AnalyticItem struct {
	Kind         ItemKind
	Bank         string // MYBASE for the own base
	Month        string // the edition's month; "" for the own base
	Code         string
	Description  string
	Unit         string
	ResourceType int    // 0 for a composition
	Section      string // SICRO-model compositions only: A, B, C, D, E or O
	Coefficient  decimal.Decimal
	UnitPrice    decimal.Decimal // in the budget's regime
	// Partial is the item's cost in one unit of the composition: the line
	// total as the composition's pricing cut it (own compositions), or
	// trunc₂(coefficient × unit price), Caixa's rule, for the lines of a
	// published structure, whose sum may differ from the published cost by
	// the centavos Caixa's own rounding kept.
	Partial decimal.Decimal
	Missing bool
	Reason  string // why it is missing
	// LabourBase and LabourCharges, on a bank labour resource of an own
	// composition priced with its own labour charges, are its price
	// without charges and the percentage applied (PricedItem's).
	LabourBase, LabourCharges decimal.NullDecimal
	// Items are the items of a composition item, opened in turn. Subtrees
	// are shared between the rows that open the same composition: read
	// them, don't change them.
	Items []AnalyticItem
}

// AnalyticRow is a row of the analytic report: a synthetic row and, for a
// composition line, the composition opened.
type AnalyticRow struct {
	SyntheticRow
	// Items are the items of one unit of a composition line.
	Items []AnalyticItem
	// UnitSummary is one unit of the line by category, computed from its
	// leaves (as Explode finds them): each leaf's quantity × unit price cut
	// by the budget's rounding, then added. Stages have none.
	UnitSummary CostSummary
}

// AnalyticReport is the analytic report with unit prices (orçamento
// analítico) of a budget.
type AnalyticReport struct {
	Budget *Budget
	Rows   []AnalyticRow
	BudgetTotals
	// Summary is the whole budget by category, without BDI: the totals of
	// the ABC curve's rows added per category.
	Summary CostSummary
	// Missing is the synthetic report's, and the items of published
	// structures that the edition lacks (their partials are left out).
	Missing []BudgetMissing
	// A streamed report (AnalyticStream) has no Rows: Each hands them out.
	stream *analyticStream
	check  func() error // Interrupt's
}

// Incomplete reports whether something could not be priced.
func (r *AnalyticReport) Incomplete() bool { return len(r.Missing) > 0 }

// InterruptEvery is how many rows Each hands out between two calls of the
// check given to Interrupt.
const InterruptEvery = 256

// Interrupt makes Each call check before the first row and then every
// InterruptEvery rows, and stop with its error when it returns one (the
// client that asked for the report has gone away): a long document stops
// being computed. nil checks nothing.
func (r *SyntheticReport) Interrupt(check func() error) { r.check = check }

// Interrupt is SyntheticReport.Interrupt.
func (r *AnalyticReport) Interrupt(check func() error) { r.check = check }

// interruptible is fn called by Each, check called as Interrupt says.
func interruptible[T any](check func() error, fn func(T) error) func(T) error {
	if check == nil {
		return fn
	}
	n := 0
	return func(row T) error {
		if n%InterruptEvery == 0 {
			if err := check(); err != nil {
				return err
			}
		}
		n++
		return fn(row)
	}
}

// Analytic computes the analytic report of the budget with its rows held
// (Rows): AnalyticStream over the budget's tree, its rows kept.
func (bp *BudgetPricer) Analytic(b *Budget) (*AnalyticReport, error) {
	r, err := bp.analyticStream(b, b.Walk, b.Walk)
	if err != nil {
		return nil, err
	}
	rows := make([]AnalyticRow, 0, r.Len())
	if err := r.Each(func(row *AnalyticRow) error { rows = append(rows, *row); return nil }); err != nil {
		return nil, err
	}
	r.Rows = rows
	return r, nil
}

// appendStructureMissing adds the missing items of a published structure
// (opened from the composition code), at any depth, to out.
func appendStructureMissing(out []BudgetMissing, n *BudgetNode, number, code string, items []AnalyticItem) []BudgetMissing {
	for _, ai := range items {
		if ai.Missing {
			out = append(out, BudgetMissing{NodeID: n.ID, Number: number, MissingPrice: MissingPrice{
				Bank: ai.Bank, Code: ai.Code, Kind: ai.Kind,
				Reason: "in the published structure of " + code + ": " + ai.Reason}})
		}
		if len(ai.Items) > 0 {
			out = appendStructureMissing(out, n, number, ai.Code, ai.Items)
		}
	}
	return out
}

// unitSummary is one unit of a line by category, computed once per thing
// named, regime and rounding.
func (bp *BudgetPricer) unitSummary(b *Budget, n *BudgetNode) (CostSummary, error) {
	lk, _, _ := lineKey(b, n)
	key := regimeKey(b.Regime()) + string(b.Rounding) + "\x00" + lk
	if s, ok := bp.summaries[key]; ok {
		return s, nil
	}
	unit, err := bp.lineUnit(b, n)
	if err != nil {
		return CostSummary{}, err
	}
	var s CostSummary
	for _, lq := range unit {
		s.add(lq.leaf.category, b.Rounding.cutMul(lq.qty, lq.leaf.price.In(b.Regime())))
	}
	bp.summaries[key] = s
	return s, nil
}

func regimeKey(reg Regime) string {
	if reg == Desonerado {
		return "D\x00"
	}
	return "N\x00"
}

// ownItems opens an own composition: its priced items, with the
// compositions among them opened in turn.
func (bp *BudgetPricer) ownItems(c *Composition, reg Regime) ([]AnalyticItem, error) {
	key := regimeKey(reg) + "own\x00" + c.State + "\x00" + c.Code
	if items, ok := bp.opened[key]; ok {
		return items, nil
	}
	pc, err := bp.pricer.Price(c) // fails on a cycle before anything opens
	if err != nil {
		return nil, err
	}
	items := make([]AnalyticItem, len(pc.Items))
	for i, it := range pc.Items {
		ai := AnalyticItem{
			Kind: it.Kind, Bank: it.Bank, Code: it.Code, Description: it.Description, Unit: it.Unit,
			ResourceType: it.ResourceType, Coefficient: it.Quantity,
			UnitPrice: it.UnitPrice.In(reg), Partial: it.Total.In(reg), Missing: !it.Priced(reg), Reason: it.Reason,
			LabourBase: it.LabourBase, LabourCharges: it.LabourCharges,
		}
		if c.IsSicro {
			ai.Section = it.Section
		}
		ref, known := c.Bank(it.Bank)
		ai.Month = ref.Month
		if it.Kind == KindComposition && !it.Missing {
			switch {
			case it.IsOwn():
				sub, err := bp.src.OwnComposition(it.Code, c.State)
				if err != nil {
					return nil, err
				}
				ai.Items, err = bp.ownItems(sub, reg)
				if err != nil {
					return nil, err
				}
			case known:
				ai.Items, err = bp.bankItems(ref, it.Code, reg, decimal.NullDecimal{})
				if err != nil {
					return nil, err
				}
			}
		}
		items[i] = ai
	}
	bp.opened[key] = items
	return items, nil
}

// bankItems opens a bank composition through its published structure; nil
// when the structure was not imported.
func (bp *BudgetPricer) bankItems(ref BankRef, code string, reg Regime, charges decimal.NullDecimal) ([]AnalyticItem, error) {
	key := regimeKey(reg) + "bank\x00" + ref.EditionKey() + "\x00" + code + chargesKey(charges)
	if items, ok := bp.opened[key]; ok {
		return items, nil
	}
	if bp.visiting[key] {
		return nil, Errorf(ECONFLICT, "composition %s of %s contains itself", code, ref.EditionKey())
	}
	bp.visiting[key] = true
	defer delete(bp.visiting, key)
	c, err := bp.src.BankComposition(ref, code)
	if err != nil {
		if ErrorCode(err) == ENOTFOUND {
			return nil, nil
		}
		return nil, err
	}
	var items []AnalyticItem
	for _, si := range c.Items {
		ai := AnalyticItem{Kind: si.Kind, Bank: ref.Name, Month: ref.Month, Code: si.Code, Coefficient: si.Coefficient}
		if si.Kind == KindComposition {
			sub, err := bp.src.BankComposition(ref, si.Code)
			switch {
			case ErrorCode(err) == ENOTFOUND:
				ai.Missing, ai.Reason = true, "composition "+si.Code+" does not exist in "+ref.Label()
			case err != nil:
				return nil, err
			default:
				ai.Description, ai.Unit, ai.UnitPrice = sub.Description, sub.Unit, sub.Cost.In(reg)
				if !sub.Priced(reg) {
					ai.Missing, ai.Reason = true, "composition "+si.Code+" has no "+regimeLabel(reg)+" price in "+ref.Label()
				}
				if charges.Valid && len(sub.Items) > 0 {
					cc, err := bp.chargedBankCost(ref, si.Code, charges)
					if err != nil {
						return nil, err
					}
					ai.UnitPrice = cc.price.In(reg)
					ai.Missing, ai.Reason = cc.missingIn(reg)
				}
				if ai.Items, err = bp.bankItems(ref, si.Code, reg, charges); err != nil {
					return nil, err
				}
			}
		} else {
			r, err := bp.src.BankResource(ref, si.Code)
			switch {
			case ErrorCode(err) == ENOTFOUND:
				ai.Missing, ai.Reason = true, "resource "+si.Code+" does not exist in "+ref.Label()
			case err != nil:
				return nil, err
			default:
				ai.Description, ai.Unit, ai.ResourceType = r.Description, r.Unit, r.Type
				ai.UnitPrice = r.Prices.Productive(reg)
				if !r.Priced(reg) {
					ai.Missing, ai.Reason = true, "resource "+si.Code+" has no "+regimeLabel(reg)+" price in "+ref.Label()
				}
				if charges.Valid && r.Type == TypeLabor {
					ai.UnitPrice, ai.Missing, ai.Reason, ai.LabourBase, ai.LabourCharges = chargedLabour(r, ref, charges)
				}
			}
		}
		ai.Partial = LineTotal(Truncate2, si.Coefficient, ai.UnitPrice)
		items = append(items, ai)
	}
	bp.opened[key] = items
	return items, nil
}
