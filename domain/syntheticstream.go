package domain

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// NodeWalk walks a budget's tree in order, a stage before its children:
// visit is called with each node and its depth (1 at the top). The node's
// Items need not be filled (its children are the nodes visited after it,
// deeper), and the node is visit's for the call only (its strings may be
// kept: they are never memory of the store's). The walk stops at
// visit's first error and returns it. A NodeWalk may be called more than
// once, and walks the same tree each time.
type NodeWalk func(visit func(n *BudgetNode, depth int) error) error

// Walk is the NodeWalk of b's tree.
func (b *Budget) Walk(visit func(n *BudgetNode, depth int) error) error {
	var walk func(ns []BudgetNode, depth int) error
	walk = func(ns []BudgetNode, depth int) error {
		for i := range ns {
			if err := visit(&ns[i], depth); err != nil {
				return err
			}
			if err := walk(ns[i].Items, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(b.Items, 1)
}

// SyntheticStream computes the synthetic report of the budget b (its
// fields, Items not needed) whose tree walk walks, in two passes over the
// tree instead of holding its rows: the one computation of the synthetic
// report (Synthetic keeps its rows). The first pass, here, prices every
// line, sums the stages and the footer, and checks every figure's bounds.
// The second, SyntheticReport.Each, hands out the rows one by one, priced
// again from what the first resolved, over the tree as the first pass
// recorded it (nodeTape, about a dozen bytes a line): walk is called once,
// here, and may read memory that is gone once it returns (a store
// transaction's), and Each reads nothing from the source bp reads from.
// Besides the budget's fields and the tape the report holds the sums of
// the stages and what each distinct item the lines name resolved to.
func (bp *BudgetPricer) SyntheticStream(b *Budget, walk NodeWalk) (*SyntheticReport, error) {
	return bp.syntheticStream(b, walk, nil, nil)
}

// syntheticStream is SyntheticStream, calling onLine (when not nil) with
// every line, its number and what it names, as the first pass meets it.
// The second pass walks replay, or when it is nil the tree as the first
// pass recorded it.
func (bp *BudgetPricer) syntheticStream(b *Budget, walk NodeWalk, onLine func(n *BudgetNode, num *numberer, li *lineInfo) error, replay NodeWalk) (*SyntheticReport, error) {
	s := &syntheticStream{bp: bp, b: b, rule: b.BDIRule(), reg: b.Regime(), replay: replay}
	s.prepare()
	var out []BudgetMissing
	var total, withBDI, supply amount
	var maxRow amount // the largest row total (stages included): the largest weight
	rows := 0
	var num numberer
	var open []int // the stage ordinals open at each depth
	err := walk(func(n *BudgetNode, depth int) error {
		if replay == nil {
			s.tape.record(n, depth)
		}
		rows++
		num.next(depth)
		open = open[:depth-1]
		if !n.Kind.IsLine() {
			open = append(open, len(s.stageTotal))
			s.stageTotal, s.stageWithBDI = append(s.stageTotal, amount{}), append(s.stageWithBDI, amount{})
			return nil
		}
		f, li, err := s.line(n)
		if err != nil {
			return err
		}
		if missing, reason := li.missingIn(s.reg); missing {
			out = append(out, BudgetMissing{NodeID: n.ID, Number: num.String(), MissingPrice: MissingPrice{
				Bank: n.Bank, Code: n.Code, Kind: ItemKind(n.Kind), Reason: reason}})
		}
		for _, m := range li.sub {
			if !m.Unpriced[s.reg] {
				continue
			}
			m.Reason = "in own composition " + n.Code + " (" + b.State + "): " + m.Reason
			out = append(out, BudgetMissing{NodeID: n.ID, Number: num.String(), MissingPrice: m})
		}
		if FigureOut(n.Quantity) || FigureOut(f.unitPrice) || (!f.final && f.unitWithBDI.out()) || f.total.out() || f.withBDI.out() {
			s.out = true
		}
		total, withBDI = total.add(f.total), withBDI.add(f.withBDI)
		if f.supply {
			supply = supply.add(f.total)
		}
		for _, st := range open {
			s.stageTotal[st], s.stageWithBDI[st] = s.stageTotal[st].add(f.total), s.stageWithBDI[st].add(f.withBDI)
		}
		if maxRow.less(f.total) {
			maxRow = f.total
		}
		if onLine != nil {
			return onLine(n, &num, li)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range s.stageTotal {
		if s.stageTotal[i].out() || s.stageWithBDI[i].out() {
			s.out = true
		}
		if maxRow.less(s.stageTotal[i]) {
			maxRow = s.stageTotal[i]
		}
	}
	s.total = total
	if total.sign() > 0 && FigureOut(weight(maxRow, total)) {
		s.out = true // a weight grows with its row's total
	}
	return &SyntheticReport{Budget: b, BudgetTotals: s.rule.TotalsWithSupply(total.Decimal(), supply.Decimal(), withBDI.Decimal()),
		Missing: out, stream: s, rows: rows}, nil
}

// syntheticStream is what SyntheticStream's first pass leaves for the
// second.
type syntheticStream struct {
	bp     *BudgetPricer
	b      *Budget
	tape   nodeTape // the tree as the first pass met it, for the second
	replay NodeWalk // the second pass's walk, when not the tape's
	rule   BDIRule
	reg    Regime
	// The BDI factors (1 + rate/100) of the lines and the supply lines, on
	// the unit price.
	factor, supplyFactor amount
	supply               map[string]bool // nil: look in b.SupplyNodes
	lines                map[streamLineKey]*streamItem
	// Per stage, in tree order: the sums of its lines' totals.
	stageTotal, stageWithBDI []amount
	total                    amount // the budget's total
	out                      bool   // some figure is out of bounds
}

type streamLineKey struct {
	kind       NodeKind
	bank, code string
}

func (s *syntheticStream) prepare() {
	s.factor, s.supplyFactor = amountOf(s.rule.factor()), amountOf(s.rule.supplyFactor())
	if len(s.b.SupplyNodes) > 8 {
		s.supply = make(map[string]bool, len(s.b.SupplyNodes))
		for _, id := range s.b.SupplyNodes {
			s.supply[id] = true
		}
	}
	s.lines = map[streamLineKey]*streamItem{}
}

func (s *syntheticStream) isSupply(id string) bool {
	if s.supply != nil {
		return s.supply[id]
	}
	return s.b.IsSupply(id)
}

// streamLine is a line's figures: its unit price as it is, the rest cut
// to centavos (BDIRule.line).
type streamLine struct {
	unitPrice decimal.Decimal
	lineAmounts
	supply bool
}

// streamItem is what lines name, resolved, with its unit price in the
// budget's regime and its unit prices with BDI (the lines' and the supply
// lines'), computed once.
type streamItem struct {
	li                 *lineInfo
	price              decimal.Decimal
	amount             amount
	withBDI, supplyBDI amount
}

// line resolves the line n (once per distinct item: the key costs no
// allocation) and computes its figures.
func (s *syntheticStream) line(n *BudgetNode) (streamLine, *lineInfo, error) {
	k := streamLineKey{n.Kind, n.Bank, n.Code}
	it := s.lines[k]
	if it == nil {
		li, err := s.bp.line(s.b, n)
		if err != nil {
			return streamLine{}, nil, err
		}
		it = &streamItem{li: li, price: li.price.In(s.reg)}
		it.amount = amountOf(it.price)
		it.withBDI, it.supplyBDI = s.rule.unitWithBDI(it.amount, s.factor), s.rule.unitWithBDI(it.amount, s.supplyFactor)
		s.lines[k] = it
	}
	f := streamLine{unitPrice: it.price, supply: s.isSupply(n.ID)}
	withBDI := it.withBDI
	if f.supply {
		withBDI = it.supplyBDI
	}
	f.lineAmounts = s.rule.lineWith(withBDI, it.amount, amountOf(n.Quantity))
	return f, it.li, nil
}

// numberer numbers the nodes of a walk by position ("1", "1.1", …).
type numberer struct {
	at  []int
	buf []byte
}

func (nb *numberer) next(depth int) {
	if depth > len(nb.at) {
		nb.at = append(nb.at, 0)
	}
	nb.at = nb.at[:depth]
	nb.at[depth-1]++
}

func (nb *numberer) String() string {
	nb.buf = nb.buf[:0]
	for i, n := range nb.at {
		if i > 0 {
			nb.buf = append(nb.buf, '.')
		}
		nb.buf = strconv.AppendInt(nb.buf, int64(n), 10)
	}
	return string(nb.buf)
}

// Len is the number of rows of the report.
func (r *SyntheticReport) Len() int {
	if r.stream != nil {
		return r.rows
	}
	return len(r.Rows)
}

// FiguresOut reports whether some figure of the report (its rows and its
// footer) or of its budget's own (Budget.FiguresOut) is out of bounds
// (FigureOut): for a computed report as its first pass found, for one built
// of its Rows alone by looking at every row. An answer showing such a figure
// is refused (ErrFiguresOut).
func (r *SyntheticReport) FiguresOut() bool {
	if r.Budget.FiguresOut() || r.BudgetTotals.FiguresOut() {
		return true
	}
	if r.stream != nil {
		return r.stream.out
	}
	for i := range r.Rows {
		if r.Rows[i].figuresOut() {
			return true
		}
	}
	return false
}

// Each calls fn with every row in order, stopping at its first error. The
// row is fn's for the call only. A streamed report (SyntheticStream) walks
// its budget's tree again and prices each row as it goes. Interrupt stops
// it early.
func (r *SyntheticReport) Each(fn func(*SyntheticRow) error) error {
	fn = interruptible(r.check, fn)
	if r.stream == nil || r.Rows != nil {
		for i := range r.Rows {
			if err := fn(&r.Rows[i]); err != nil {
				return err
			}
		}
		return nil
	}
	return r.stream.each(func(row *SyntheticRow, _ *BudgetNode, _ *lineInfo) error { return fn(row) })
}

// each is the second pass: fn gets every row, with its node and, for a
// line, what it names.
func (s *syntheticStream) each(fn func(row *SyntheticRow, n *BudgetNode, li *lineInfo) error) error {
	var num numberer
	var row SyntheticRow
	stage := 0
	weightOf := func(x amount) decimal.Decimal {
		if s.total.sign() > 0 {
			return weight(x, s.total)
		}
		return decimal.Decimal{}
	}
	walk := s.replay
	if walk == nil {
		walk = s.tape.walk
	}
	return walk(func(n *BudgetNode, depth int) error {
		num.next(depth)
		row = SyntheticRow{NodeID: n.ID, Number: num.String(), Depth: depth, Kind: n.Kind}
		if !n.Kind.IsLine() {
			row.Description = n.Description
			row.Total, row.TotalWithBDI = s.stageTotal[stage].Decimal(), s.stageWithBDI[stage].Decimal()
			row.Weight = weightOf(s.stageTotal[stage])
			stage++
			return fn(&row, n, nil)
		}
		f, li, err := s.line(n)
		if err != nil {
			return err // not for a tree the first pass walked
		}
		row.Bank, row.Month, row.Code, row.Unit, row.Quantity = n.Bank, li.ref.Month, n.Code, li.unit, n.Quantity
		row.Description = li.description
		row.Missing, _ = li.missingIn(s.reg)
		row.Supply = f.supply
		row.LineFigures = f.figures(f.unitPrice)
		row.Weight = weightOf(f.total)
		return fn(&row, n, li)
	})
}
