package domain

// Services reports whether the curve ranks the budget's services (its
// lines) rather than its resources.
func (r *ABCReport) Services() bool { return r.Ranked == RankedServices }

// serviceKey is what makes lines one service of the curve of services: the
// same thing named (bank, edition month, code, kind) at the same unit and
// the same unit price with BDI.
type serviceKey struct {
	bank, month, code, unit string
	kind                    NodeKind
	price                   string
}

// ServicesABC computes the ABC curve of the services of a budget from its
// synthetic report: the lines that name the same service (same bank,
// edition, code and kind, same unit and same unit price with BDI) in any
// stage are one row, whose quantity and total with BDI are the sums of
// theirs; a line at another unit price with BDI (the differentiated BDI of
// supply lines) stays a row of its own. Each row's Total is the sum of the
// synthetic report's line totals with BDI, as that report rounds them, so
// the curve's Total is the sum of the lines' totals with BDI: the footer's
// TotalWithBDI (with the BDI on the final total the lines carry none, and
// the curve's Total is the footer's Total: the BDI is the footer's alone).
// UnitPrice is the unit price with BDI. The rows are ranked
// by RankABC. A line the synthetic report could not price is a row marked
// Missing, priced as that report prices it (zero); the curve's Missing is
// the synthetic report's. Zero limits take the defaults; others must be
// valid.
func ServicesABC(syn *SyntheticReport, limits ABCLimits) (*ABCReport, error) {
	if limits.IsZero() {
		limits = DefaultABCLimits()
	}
	if err := limits.Validate(); err != nil {
		return nil, err
	}
	var items []ABCInput
	index := map[serviceKey]int{}
	err := syn.Each(func(row *SyntheticRow) error {
		if row.Kind == NodeStage {
			return nil
		}
		k := serviceKey{bank: row.Bank, month: row.Month, code: row.Code, unit: row.Unit, kind: row.Kind,
			price: row.UnitPriceWithBDI.String()}
		i, ok := index[k]
		if !ok {
			i = len(items)
			index[k] = i
			items = append(items, ABCInput{
				Ref:         BankRef{Name: row.Bank, Month: row.Month},
				Code:        row.Code,
				Kind:        ItemKind(row.Kind),
				Description: row.Description,
				Unit:        row.Unit,
				Category:    CategoryServices,
				UnitPrice:   row.UnitPriceWithBDI,
			})
		}
		it := &items[i]
		it.Quantity = it.Quantity.Add(row.Quantity)
		it.Total = it.Total.Add(row.TotalWithBDI)
		if row.Missing {
			it.Missing = true
			it.Reason = "what the line names no longer exists"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	r := &ABCReport{Budget: syn.Budget, Ranked: RankedServices, Limits: limits, Rows: RankABC(items, limits)}
	for i := range r.Rows {
		row := &r.Rows[i]
		r.Total = r.Total.Add(row.Total)
		r.Summary.add(row.Category, row.Total)
	}
	for _, m := range syn.Missing {
		r.Missing = append(r.Missing, m.MissingPrice)
	}
	return r, nil
}
