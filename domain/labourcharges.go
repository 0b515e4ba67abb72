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

// chargedLeaf is the leaf of a budget line's bank labour resource priced
// with the budget's own charges (lineInfo.ownCharges): its own key, so that
// it never stands for the bank-priced leaf of the same resource inside a
// bank composition.
func (bp *BudgetPricer) chargedLeaf(li *lineInfo, code string) *leaf {
	key := leafKey(li.ref.EditionKey(), code, KindResource, false) + "\x00charges=" + li.labourCharges.Decimal.String()
	if !li.labourCharges.Valid {
		key = leafKey(li.ref.EditionKey(), code, KindResource, false) + "\x00charges-missing"
	}
	return bp.intern(key, func() *leaf {
		return &leaf{ref: li.ref, code: code, kind: KindResource, description: li.description, unit: li.unit,
			resourceType: li.resourceType, price: li.price, missing: li.missing, reason: li.reason}
	})
}
