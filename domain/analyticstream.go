package domain

// AnalyticStream computes the analytic report of the budget b (its fields,
// Items not needed) whose tree walk walks, as SyntheticStream does the
// synthetic one: the one computation of the analytic report (Analytic
// keeps its rows). The first pass (here, one walk) prices every line, opens
// and checks each distinct thing the lines name once, finds the missing
// items of published structures and explodes the lines for the summary; the
// second, AnalyticReport.Each, hands out the rows.
func (bp *BudgetPricer) AnalyticStream(b *Budget, walk NodeWalk) (*AnalyticReport, error) {
	return bp.analyticStream(b, walk, nil)
}

// analyticStream is AnalyticStream, its second pass walking replay when it
// is not nil (syntheticStream).
func (bp *BudgetPricer) analyticStream(b *Budget, walk, replay NodeWalk) (*AnalyticReport, error) {
	a := &analyticStream{bp: bp, b: b, opened: map[*lineInfo]*analyticLine{}}
	var structure []BudgetMissing
	var targets lineTargets
	syn, err := bp.syntheticStream(b, walk, func(n *BudgetNode, num *numberer, li *lineInfo) error {
		targets.add(n)
		al, err := a.line(n, li)
		if err != nil {
			return err
		}
		if li.bank != nil && al.missing {
			structure = appendStructureMissing(structure, n, num.String(), n.Code, al.items)
		}
		return nil
	}, replay)
	if err != nil {
		return nil, err
	}
	a.syn, a.rows = syn.stream, syn.rows
	out := &AnalyticReport{Budget: b, BudgetTotals: syn.BudgetTotals,
		Missing: append(append([]BudgetMissing(nil), syn.Missing...), structure...), stream: a}
	items, err := bp.explodeTargets(b, &targets)
	if err != nil {
		return nil, err
	}
	for _, in := range items {
		out.Summary.add(in.Category, in.Total)
	}
	return out, nil
}

// analyticStream is what AnalyticStream's pass leaves for Each.
type analyticStream struct {
	bp     *BudgetPricer
	b      *Budget
	syn    *syntheticStream
	opened map[*lineInfo]*analyticLine
	out    bool // an item or a unit summary is out of bounds
	rows   int
}

// analyticLine is what the analytic report shows of one thing lines name:
// its items opened and one unit by category.
type analyticLine struct {
	items   []AnalyticItem
	summary CostSummary
	missing bool // some item, at any depth, is missing
}

// line opens what the line n names, once per distinct thing, and checks
// its figures.
func (a *analyticStream) line(n *BudgetNode, li *lineInfo) (*analyticLine, error) {
	if al := a.opened[li]; al != nil {
		return al, nil
	}
	reg := a.b.Regime()
	al := &analyticLine{}
	var err error
	switch {
	case li.own != nil:
		al.items, err = a.bp.ownItems(li.own, reg)
	case li.bank != nil:
		al.items, err = a.bp.bankItems(li.ref, n.Code, reg, a.b.LabourCharges)
	}
	if err != nil {
		return nil, err
	}
	if al.summary, err = a.bp.unitSummary(a.b, n); err != nil {
		return nil, err
	}
	al.missing = itemsMissing(al.items)
	if itemsOut(al.items, map[*AnalyticItem]bool{}) || al.summary.FiguresOut() {
		a.out = true
	}
	a.opened[li] = al
	return al, nil
}

func itemsMissing(its []AnalyticItem) bool {
	for i := range its {
		if its[i].Missing || itemsMissing(its[i].Items) {
			return true
		}
	}
	return false
}

// itemsOut reports whether a figure of the items, at any depth, is out of
// bounds (subtrees shared between rows are looked at once).
func itemsOut(its []AnalyticItem, seen map[*AnalyticItem]bool) bool {
	if len(its) == 0 || seen[&its[0]] {
		return false
	}
	seen[&its[0]] = true
	for i := range its {
		it := &its[i]
		if FigureOut(it.Coefficient) || FigureOut(it.UnitPrice) || FigureOut(it.Partial) || itemsOut(it.Items, seen) {
			return true
		}
	}
	return false
}

// Len is the number of rows of the report.
func (r *AnalyticReport) Len() int {
	if r.stream != nil {
		return r.stream.rows
	}
	return len(r.Rows)
}

// FiguresOut reports whether some figure of the report (its rows' figures,
// items at any depth and unit summaries, its footer and summary) or of its
// budget's own (Budget.FiguresOut) is out of bounds (FigureOut): for a
// streamed report as its pass found, for one built of its Rows alone by
// looking at every row.
func (r *AnalyticReport) FiguresOut() bool {
	if r.Budget.FiguresOut() || r.BudgetTotals.FiguresOut() || r.Summary.FiguresOut() {
		return true
	}
	if r.stream != nil {
		return r.stream.syn.out || r.stream.out
	}
	seen := map[*AnalyticItem]bool{}
	for i := range r.Rows {
		x := &r.Rows[i]
		if x.SyntheticRow.figuresOut() || x.UnitSummary.FiguresOut() || itemsOut(x.Items, seen) {
			return true
		}
	}
	return false
}

// Each calls fn with every row in order, stopping at its first error; the
// row is fn's for the call only, its items shared (read them, don't change
// them). A streamed report (AnalyticStream) walks its budget's tree again.
// Interrupt stops it early.
func (r *AnalyticReport) Each(fn func(*AnalyticRow) error) error {
	fn = interruptible(r.check, fn)
	if r.stream == nil || r.Rows != nil {
		for i := range r.Rows {
			if err := fn(&r.Rows[i]); err != nil {
				return err
			}
		}
		return nil
	}
	a := r.stream
	var row AnalyticRow
	return a.syn.each(func(sr *SyntheticRow, n *BudgetNode, li *lineInfo) error {
		row = AnalyticRow{SyntheticRow: *sr}
		if li != nil {
			al, err := a.line(n, li)
			if err != nil {
				return err
			}
			row.Items, row.UnitSummary = al.items, al.summary
		}
		return fn(&row)
	})
}
