package domain

// BankCompositionView is a reference-bank composition shown as a
// composition of the company's base is (the v1 views under
// /base/{bank}/…): its price is the published unit cost (Cost), never
// recomputed; its items are the published structure, each line total the
// coefficient times the unit price cut by the rounding method (so the
// lines may differ from the published cost by centavos, as DNIT's and
// Caixa's own roundings do); a regime the bank did not publish a cost in
// is unpriced (null) and named in Missing, as are structure items the
// edition lacks. The view belongs to no company: ID is the code.
func BankCompositionView(ed *Edition, c *BankComposition, structure []PricedItem, rounding RoundingMethod) *PricedComposition {
	ref := ed.Ref()
	comp := &Composition{
		ID: c.Code, Code: c.Code, Description: c.Description, Type: c.Class, Unit: c.Unit, State: ed.State,
		Rounding: rounding, Banks: []BankRef{ref}, CreatedAt: ed.ImportedAt,
	}
	items := make([]PricedItem, len(structure))
	for i, it := range structure {
		it.Bank = ref.Name
		it.Total = UnitPrice{
			PND: LineTotal(rounding, it.Quantity, it.UnitPrice.PND),
			PD:  LineTotal(rounding, it.Quantity, it.UnitPrice.PD),
		}
		comp.Items = append(comp.Items, it.Item)
		items[i] = it
	}
	pc := &PricedComposition{Composition: comp, Items: items, Prices: Prices{PND: c.Cost.PND, PD: c.Cost.PD}}
	lacks, reason := lacking(c.Priced, "composition", c.Code, ref)
	pc.Prices.Unpriced = lacks
	if reason != "" {
		pc.Missing = append(pc.Missing, MissingPrice{Bank: ref.Name, Code: c.Code, Kind: KindComposition, Reason: reason, Unpriced: lacks})
	}
	for _, it := range items {
		if it.Missing {
			pc.Missing = append(pc.Missing, MissingPrice{Bank: it.Bank, Code: it.Code, Kind: it.Kind, Reason: it.Reason, Unpriced: it.Unpriced})
		}
	}
	return pc
}
