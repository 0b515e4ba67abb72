package domain

import "github.com/shopspring/decimal"

// Own labour charges (encargos sociais). A reference bank prices a labour
// resource with the bank's social charges (SINAPI: per state, horista and
// mensalista, with and without desoneração) and publishes, beside it, the
// price without charges (SINAPI's "sem encargos" sheets). A company whose
// charges differ (a Simples Nacional company, for one) prices labour with
// its own percentage instead: a composition or a budget with LabourCharges
// set prices every bank labour resource that has a price without charges
// at that price × (1 + charges / 100), the same in both regimes (the
// company's own charges take the place of the bank's regime-specific
// ones). This file is the one place of that rule.

// MaxLabourCharges is the largest own charges percentage accepted: well
// above any published table (SINAPI's horista charges are about 110 to
// 120 %, DNIT's about 110 %).
var MaxLabourCharges = decimal.NewFromInt(1000)

// LabourPrice is the price of a labour resource with the company's own
// charges: base × (1 + charges / 100), truncated to 2 places as Caixa
// publishes labour prices (never more than the exact figure). Exact: the
// factor is a decimal shift, the product is exact before the cut.
func LabourPrice(base, charges decimal.Decimal) decimal.Decimal {
	factor := charges.Shift(-2).Add(decimal.NewFromInt(1))
	return mulCut(amountOf(base), amountOf(factor), 2, cutTruncate).Decimal()
}

// ValidateLabourCharges checks an own charges percentage: absent (null, the
// bank's prices) or from 0 to MaxLabourCharges, with at most 4 decimal
// places.
func ValidateLabourCharges(v *Validation, field string, c decimal.NullDecimal) {
	if !c.Valid {
		return
	}
	switch {
	case c.Decimal.IsNegative():
		v.Add(field, "must not be negative")
	case c.Decimal.GreaterThan(MaxLabourCharges):
		v.Add(field, "must be at most %s (percent)", MaxLabourCharges)
	case c.Decimal.Exponent() < -4 && !c.Decimal.Equal(c.Decimal.Truncate(4)):
		v.Add(field, "has more than 4 decimal places")
	}
}

// ownCharges prices a bank labour resource item with the composition's own
// charges, when the composition has them and the resource is labour. The
// item then shows the base price and the charges applied (LabourBase,
// LabourCharges); a labour resource the bank published no price without
// charges for cannot be priced so, and is missing (never the bank's
// charged price under the company's name).
func ownCharges(pi *PricedItem, r *BankResource, charges decimal.NullDecimal, ref BankRef) {
	if !charges.Valid || r.Type != TypeLabor {
		return
	}
	if !r.Base.Valid {
		pi.Missing, pi.Unpriced = true, [2]bool{true, true}
		pi.UnitPrice, pi.IdlePrice = UnitPrice{}, UnitPrice{}
		pi.Reason = "labour resource " + r.Code + " has no price without charges (sem encargos) in " + ref.Label() +
			": it cannot be priced with the own labour charges"
		return
	}
	p := LabourPrice(r.Base.Decimal, charges.Decimal)
	pi.UnitPrice, pi.IdlePrice = UnitPrice{PND: p, PD: p}, UnitPrice{PND: p, PD: p}
	pi.Unpriced, pi.Missing, pi.Reason = [2]bool{}, false, ""
	pi.LabourBase, pi.LabourCharges = r.Base, charges
}

// ownCharges prices a budget line naming a bank labour resource with the
// budget's own charges, as ownCharges does a composition's item: the same
// figure in both regimes, missing when the bank published no price without
// charges.
func (li *lineInfo) ownCharges(r *BankResource, charges decimal.NullDecimal) {
	if !charges.Valid || r.Type != TypeLabor {
		return
	}
	li.lacks, li.lackReason = [2]bool{}, ""
	if !r.Base.Valid {
		li.price, li.missing = UnitPrice{}, true
		li.reason = "labour resource " + r.Code + " has no price without charges (sem encargos) in " + li.ref.Label() +
			": it cannot be priced with the budget's own labour charges"
		return
	}
	p := LabourPrice(r.Base.Decimal, charges.Decimal)
	li.price = UnitPrice{PND: p, PD: p}
	li.labourBase, li.labourCharges = r.Base, charges
}

// chargesKey is what own charges add to a memo key ("" for none).
func chargesKey(charges decimal.NullDecimal) string {
	if !charges.Valid {
		return ""
	}
	return "\x00charges=" + charges.Decimal.String()
}

// chargedLabour is a bank labour resource's price with the budget's own
// charges, or why it has none.
func chargedLabour(r *BankResource, ref BankRef, charges decimal.NullDecimal) (price decimal.Decimal, missing bool, reason string, base, applied decimal.NullDecimal) {
	if !r.Base.Valid {
		return decimal.Zero, true, "labour resource " + r.Code + " has no price without charges (sem encargos) in " + ref.Label() +
			": it cannot be priced with the budget's own labour charges", base, applied
	}
	return LabourPrice(r.Base.Decimal, charges.Decimal), false, "", r.Base, charges
}

// chargedResourceLeaf is the leaf of a bank labour resource priced with a
// budget's own charges: its own key, so that it never stands for the
// bank-priced leaf of the same resource (an own composition's item).
func (bp *BudgetPricer) chargedResourceLeaf(ref BankRef, code string, charges decimal.NullDecimal) *leaf {
	r, _ := bp.src.BankResource(ref, code) // looked up (memo) by the caller: a labour resource exists
	return bp.intern(leafKey(ref.EditionKey(), code, KindResource, false)+chargesKey(charges), func() *leaf {
		l := &leaf{ref: ref, code: code, kind: KindResource, description: r.Description, unit: r.Unit, resourceType: r.Type}
		p, missing, reason, _, _ := chargedLabour(r, ref, charges)
		l.price, l.missing, l.reason = UnitPrice{PND: p, PD: p}, missing, reason
		return l
	})
}

// chargedCost is the cost of one unit of a bank composition recomputed
// from its published structure with its labour priced by the budget's own
// charges.
type chargedCost struct {
	price      UnitPrice
	lacks      [2]bool
	lackReason string
	missing    bool
	reason     string
}

func (cc *chargedCost) missingIn(reg Regime) (bool, string) {
	if cc.missing {
		return true, cc.reason
	}
	if cc.lacks[reg] {
		return true, cc.lackReason
	}
	return false, ""
}

// chargedBankCost recomputes a bank composition's unit cost as SINAPI's
// model computes it — Σ LineTotal(Truncate2, coefficient, price) over its
// published items, in each regime — with every bank labour resource priced
// by LabourPrice and every sub-composition that has a published structure
// recomputed so; a sub-composition without one keeps its published cost.
// An item that cannot be priced makes the composition missing (its first
// reason), never a partial sum shown as its cost.
func (bp *BudgetPricer) chargedBankCost(ref BankRef, code string, charges decimal.NullDecimal) (*chargedCost, error) {
	key := ref.EditionKey() + "\x00" + code + chargesKey(charges)
	if cc, ok := bp.charged[key]; ok {
		return cc, nil
	}
	if bp.visiting["charged\x00"+key] {
		return nil, Errorf(ECONFLICT, "composition %s of %s contains itself", code, ref.EditionKey())
	}
	bp.visiting["charged\x00"+key] = true
	defer delete(bp.visiting, "charged\x00"+key)
	cc := &chargedCost{price: UnitPrice{PND: decimal.Zero, PD: decimal.Zero}}
	fail := func(reason string) {
		if !cc.missing {
			cc.missing, cc.reason = true, reason
		}
	}
	lack := func(reg Regime, reason string) {
		if !cc.lacks[reg] && cc.lackReason == "" {
			cc.lackReason = reason
		}
		cc.lacks[reg] = true
	}
	c, err := bp.src.BankComposition(ref, code)
	if err != nil {
		return nil, err
	}
	for _, si := range c.Items {
		var p UnitPrice
		if si.Kind == KindComposition {
			sub, err := bp.src.BankComposition(ref, si.Code)
			switch {
			case ErrorCode(err) == ENOTFOUND:
				fail("composition " + si.Code + " does not exist in " + ref.Label())
				continue
			case err != nil:
				return nil, err
			case len(sub.Items) == 0:
				p = sub.Cost
				for _, g := range []Regime{NaoDesonerado, Desonerado} {
					if !sub.Priced(g) {
						lack(g, "composition "+si.Code+" has no "+regimeLabel(g)+" price in "+ref.Label())
					}
				}
			default:
				sc, err := bp.chargedBankCost(ref, si.Code, charges)
				if err != nil {
					return nil, err
				}
				if sc.missing {
					fail(sc.reason)
				}
				for _, g := range []Regime{NaoDesonerado, Desonerado} {
					if sc.lacks[g] {
						lack(g, sc.lackReason)
					}
				}
				p = sc.price
			}
		} else {
			r, err := bp.src.BankResource(ref, si.Code)
			switch {
			case ErrorCode(err) == ENOTFOUND:
				fail("resource " + si.Code + " does not exist in " + ref.Label())
				continue
			case err != nil:
				return nil, err
			case r.Type == TypeLabor:
				lp, missing, reason, _, _ := chargedLabour(r, ref, charges)
				if missing {
					fail(reason)
				}
				p = UnitPrice{PND: lp, PD: lp}
			default:
				p = UnitPrice{PND: r.Prices.Productive(NaoDesonerado), PD: r.Prices.Productive(Desonerado)}
				for _, g := range []Regime{NaoDesonerado, Desonerado} {
					if !r.Priced(g) {
						lack(g, "resource "+si.Code+" has no "+regimeLabel(g)+" price in "+ref.Label())
					}
				}
			}
		}
		cc.price.PND = cc.price.PND.Add(LineTotal(Truncate2, si.Coefficient, p.PND))
		cc.price.PD = cc.price.PD.Add(LineTotal(Truncate2, si.Coefficient, p.PD))
	}
	if cc.missing {
		cc.price = UnitPrice{}
	}
	bp.charged[key] = cc
	return cc, nil
}
