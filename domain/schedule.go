package domain

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// A schedule (cronograma físico-financeiro) spreads a budget over periods:
// for each of its rows (a stage or a line of the budget) the share of its
// value executed in each period, in percent with at most 2 places, the
// shares of a row adding up to exactly 100. The rows must cover every line
// of the budget once (a stage covers the lines under it), so that the
// table adds up to the budget's total.
//
// The physical-financial table (ScheduleTable) prices it from the budget's
// synthetic report:
//
//	cell = cut(row value × share / 100)   (the budget's rounding, 2 places)
//
// and the row's last period with a non-zero share takes the remainder
// (row value − the sum of its other cells), so that every row's cells add
// up exactly to the row's value and no centavo is lost or made. A row's
// value is its total with BDI (the synthetic report's); on the final total
// (the lines carry no BDI) the rows are without BDI and a last row, "BDI",
// spreads the footer's BDI value over the periods in proportion to their
// totals, with the same rule for its remainder.

// MaxSchedulePeriods is the most periods a schedule has (ten years of
// months).
const MaxSchedulePeriods = 120

// Schedule is a budget's schedule.
type Schedule struct {
	BudgetID string
	// Start is the first period's month ("MM/YYYY") when the periods are
	// months (Days 0), or its first day ("YYYY-MM-DD") when they are
	// periods of Days days.
	Start   string
	Days    int
	Periods int
	Rows    []ScheduleRow
	// UpdatedAt is when the schedule was last written.
	UpdatedAt time.Time
}

// ScheduleRow is a row of a schedule: a node of the budget (a stage or a
// line) and its share of each period, in percent.
type ScheduleRow struct {
	NodeID string
	Shares []decimal.Decimal
}

// Validate checks the schedule on its own (not against a budget): the
// periods, the start, and each row's shares (as many as the periods, each
// from 0 to 100 with at most 2 places, adding up to exactly 100). Every
// error at once, with JSON pointers into the schedule as the API reads it.
func (s *Schedule) Validate() error {
	var v Validation
	if s.Periods < 1 || s.Periods > MaxSchedulePeriods {
		v.Add("/periods", "must be from 1 to %d, not %d", MaxSchedulePeriods, s.Periods)
	}
	switch {
	case s.Days < 0 || s.Days > 366:
		v.Add("/period_days", "must be from 1 to 366 (or absent: months), not %d", s.Days)
	case s.Days == 0:
		if _, err := time.Parse("01/2006", s.Start); err != nil {
			v.Add("/start", "must be the first month, MM/YYYY, when the periods are months: %q", s.Start)
		}
	default:
		if _, err := time.Parse("2006-01-02", s.Start); err != nil {
			v.Add("/start", "must be the first day, YYYY-MM-DD, when the periods are of days: %q", s.Start)
		}
	}
	if len(s.Rows) == 0 {
		v.Add("/rows", "must name at least one stage or line")
	}
	seen := map[string]int{}
	for i, r := range s.Rows {
		p := "/rows/" + strconv.Itoa(i)
		if r.NodeID == "" {
			v.Add(p+"/node_id", "is required")
		} else if j, ok := seen[r.NodeID]; ok {
			v.Add(p+"/node_id", "%s is already row %d", r.NodeID, j)
		} else {
			seen[r.NodeID] = i
		}
		if s.Periods >= 1 && len(r.Shares) != s.Periods {
			v.Add(p+"/shares", "has %d shares for %d periods", len(r.Shares), s.Periods)
		}
		sum := decimal.Zero
		bad := false
		for k, sh := range r.Shares {
			if sh.IsNegative() || sh.GreaterThan(hundred) || !sh.Equal(sh.Truncate(2)) {
				v.Add(p+"/shares/"+strconv.Itoa(k), "must be a percentage from 0 to 100 with at most 2 places, not %s", sh)
				bad = true
			}
			sum = sum.Add(sh)
		}
		if !bad && len(r.Shares) > 0 && !sum.Equal(hundred) {
			v.Add(p+"/shares", "row %s adds up to %s%%, not 100%%", r.NodeID, sum.StringFixed(2))
		}
	}
	return v.Err()
}

// Fit returns why the schedule no longer fits the budget: rows naming a
// node the budget lacks, a row inside another row, lines no row covers.
// Empty when it fits. A schedule that does not fit is stale: it is kept,
// and its table is refused until it is written again (docs/schedule.md).
func (s *Schedule) Fit(b *Budget) []string {
	var out []string
	rows := map[string]bool{}
	for _, r := range s.Rows {
		rows[r.NodeID] = true
	}
	found := map[string]bool{}
	var uncovered []string
	var walk func(ns []BudgetNode, under string)
	walk = func(ns []BudgetNode, under string) {
		for i := range ns {
			n := &ns[i]
			here := under
			if rows[n.ID] {
				found[n.ID] = true
				if under != "" {
					out = append(out, fmt.Sprintf("row %s is inside row %s: a node is in one row only", n.ID, under))
				} else {
					here = n.ID
				}
			}
			if n.Kind.IsLine() && here == "" {
				uncovered = append(uncovered, n.ID)
			}
			walk(n.Items, here)
		}
	}
	walk(b.Items, "")
	for _, r := range s.Rows {
		if !found[r.NodeID] {
			out = append(out, fmt.Sprintf("row %s names no node of the budget", r.NodeID))
		}
	}
	if len(uncovered) > 0 {
		more := ""
		if len(uncovered) > 20 {
			more = fmt.Sprintf(" and %d more", len(uncovered)-20)
			uncovered = uncovered[:20]
		}
		out = append(out, fmt.Sprintf("lines in no row: %s%s", strings.Join(uncovered, ", "), more))
	}
	return out
}

// PeriodLabel names period k (0-based): "09/2026" for months, the first
// day "2026-09-15" for periods of days.
func (s *Schedule) PeriodLabel(k int) string {
	if s.Days == 0 {
		t, _ := time.Parse("01/2006", s.Start)
		return t.AddDate(0, k, 0).Format("01/2006")
	}
	t, _ := time.Parse("2006-01-02", s.Start)
	return t.AddDate(0, 0, k*s.Days).Format("2006-01-02")
}

// ScheduleTableRow is a row of the physical-financial table.
type ScheduleTableRow struct {
	NodeID      string // "" for the BDI row on the final total
	Number      string
	Kind        NodeKind
	Description string
	Value       decimal.Decimal   // the row's value (with BDI, but on the final total)
	Shares      []decimal.Decimal // percent per period, as scheduled
	Cells       []decimal.Decimal // money per period; they add up to Value
}

// SchedulePeriod is a period's column totals.
type SchedulePeriod struct {
	Label              string
	Total              decimal.Decimal
	Percent            decimal.Decimal // of the whole, rounded half up to 2 places
	Accumulated        decimal.Decimal
	AccumulatedPercent decimal.Decimal // rounded half up to 2 places: 100 at the end
}

// ScheduleTable is the physical-financial table of a budget's schedule.
type ScheduleTable struct {
	Schedule *Schedule
	Budget   *Budget
	Rows     []ScheduleTableRow
	Periods  []SchedulePeriod
	// Total is the sum of the rows' values: the budget's total with BDI.
	Total   decimal.Decimal
	Missing []BudgetMissing
}

// NewScheduleTable prices the schedule with the budget's synthetic report
// (rows held: BudgetPricer.Synthetic). The schedule must be valid and fit
// the budget (Validate, Fit): an EINVALID error naming what does not fit
// otherwise.
func NewScheduleTable(s *Schedule, syn *SyntheticReport) (*ScheduleTable, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if problems := s.Fit(syn.Budget); len(problems) > 0 {
		return nil, Errorf(ECONFLICT, "the schedule no longer fits the budget (write it again): %s", strings.Join(problems, "; "))
	}
	rule := syn.Budget.BDIRule()
	byNode := make(map[string]*SyntheticRow, len(syn.Rows))
	for i := range syn.Rows {
		byNode[syn.Rows[i].NodeID] = &syn.Rows[i]
	}
	t := &ScheduleTable{Schedule: s, Budget: syn.Budget, Missing: syn.Missing}
	cut := rule.Rounding.Cut
	periodSum := make([]decimal.Decimal, s.Periods)
	for _, r := range s.Rows {
		sr := byNode[r.NodeID]
		row := ScheduleTableRow{NodeID: r.NodeID, Number: sr.Number, Kind: sr.Kind, Description: sr.Description,
			Value: sr.TotalWithBDI, Shares: r.Shares}
		row.Cells = spread(row.Value, r.Shares, cut)
		for k, c := range row.Cells {
			periodSum[k] = periodSum[k].Add(c)
		}
		t.Rows = append(t.Rows, row)
		t.Total = t.Total.Add(row.Value)
	}
	if rule.Mode == BDIOnFinalTotal && !syn.BDIValue.IsZero() {
		// The footer's BDI over the periods, in proportion to their totals.
		shares := make([]decimal.Decimal, s.Periods)
		for k := range shares {
			if !t.Total.IsZero() {
				shares[k] = periodSum[k].Div(t.Total) // exact enough: spread takes the remainder
			}
		}
		exact := scaleShares(shares)
		shown := make([]decimal.Decimal, len(exact))
		for k, sh := range exact {
			shown[k] = sh.Round(2)
		}
		row := ScheduleTableRow{Kind: NodeStage, Description: "BDI", Value: syn.BDIValue, Shares: shown}
		row.Cells = spread(row.Value, exact, cut)
		for k, c := range row.Cells {
			periodSum[k] = periodSum[k].Add(c)
		}
		t.Rows = append(t.Rows, row)
		t.Total = t.Total.Add(row.Value)
	}
	acc := decimal.Zero
	for k := range periodSum {
		acc = acc.Add(periodSum[k])
		p := SchedulePeriod{Label: s.PeriodLabel(k), Total: periodSum[k], Accumulated: acc}
		if !t.Total.IsZero() {
			p.Percent = periodSum[k].Shift(2).DivRound(t.Total, 2)
			p.AccumulatedPercent = acc.Shift(2).DivRound(t.Total, 2)
		}
		t.Periods = append(t.Periods, p)
	}
	return t, nil
}

// scaleShares turns fractions into percentages.
func scaleShares(fr []decimal.Decimal) []decimal.Decimal {
	out := make([]decimal.Decimal, len(fr))
	for i, f := range fr {
		out[i] = f.Shift(2)
	}
	return out
}

// spread cuts value × share / 100 per period, the last period with a
// non-zero share taking the remainder.
func spread(value decimal.Decimal, shares []decimal.Decimal, cut func(decimal.Decimal) decimal.Decimal) []decimal.Decimal {
	cells := make([]decimal.Decimal, len(shares))
	last := -1
	for k, sh := range shares {
		if !sh.IsZero() {
			last = k
		}
	}
	sum := decimal.Zero
	for k, sh := range shares {
		if k == last {
			continue
		}
		cells[k] = cut(value.Mul(sh).Shift(-2))
		sum = sum.Add(cells[k])
	}
	if last >= 0 {
		cells[last] = value.Sub(sum)
	}
	return cells
}

// SCurve is the schedule's S curve: the accumulated percent at the end of
// each period.
func (t *ScheduleTable) SCurve() []decimal.Decimal {
	out := make([]decimal.Decimal, len(t.Periods))
	for k, p := range t.Periods {
		out[k] = p.AccumulatedPercent
	}
	return out
}

// FiguresOut reports whether a figure of the table, or of its budget, is
// beyond what an answer can show (FigureOut).
func (t *ScheduleTable) FiguresOut() bool {
	if t.Budget.FiguresOut() || FigureOut(t.Total) {
		return true
	}
	for _, r := range t.Rows {
		if FigureOut(r.Value) || figuresOut(r.Cells...) {
			return true
		}
	}
	for _, p := range t.Periods {
		if FigureOut(p.Total) || FigureOut(p.Accumulated) {
			return true
		}
	}
	return false
}
