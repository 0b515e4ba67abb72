package httpapi

import (
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The reports of a budget are streamed (issue 11): their status is decided
// before the first byte, so the bounds of every figure are checked on the
// computed report, typed, before anything is written, instead of on the
// rendered body (AnswerNumbersProblem) or by reflection (FiguresProblem,
// which walks the budget's whole tree too). The problem is FiguresProblem's.

// figureOut reports whether d has more integer digits than a figure may
// have, as it is (FiguresProblem) or as Num writes it (rounded to
// MaxDecimalPlaces, AnswerNumbersProblem).
func figureOut(d decimal.Decimal) bool { return domain.FigureOut(d) }

func figuresOut(ds ...decimal.Decimal) bool {
	for _, d := range ds {
		if figureOut(d) {
			return true
		}
	}
	return false
}

// figuresProblem is FiguresProblem's answer when out is true.
func figuresProblem(out bool) string {
	if out {
		return FiguresProblem(struct{ D decimal.Decimal }{maxFigure})
	}
	return ""
}

// budgetOut checks the budget's own figures (BDI and its parts), not its
// tree: the lines' figures are the report rows'.
func budgetOut(b *domain.Budget) bool {
	if b == nil {
		return false
	}
	top := *b
	top.Items = nil
	return FiguresProblem(&top) != ""
}

func syntheticRowOut(r *domain.SyntheticRow) bool {
	return figuresOut(r.Quantity, r.UnitPrice, r.UnitPriceWithBDI, r.Total, r.TotalWithBDI, r.Weight)
}

func totalsOut(t domain.BudgetTotals) bool { return figuresOut(t.Total, t.BDIValue, t.TotalWithBDI) }

func summaryOut(s domain.CostSummary) bool {
	return figuresOut(s.Labor, s.Material, s.Equipment, s.Services, s.Total())
}

// SyntheticFiguresProblem is FiguresProblem(rep) without reflection.
func SyntheticFiguresProblem(rep *domain.SyntheticReport) string {
	// The rows' figures: checked on the rows, or by the first pass of a
	// streamed report (domain.SyntheticStream).
	return figuresProblem(budgetOut(rep.Budget) || totalsOut(rep.BudgetTotals) || rep.FiguresOut())
}

// AnalyticFiguresProblem is FiguresProblem(rep) without reflection.
func AnalyticFiguresProblem(rep *domain.AnalyticReport) string {
	// The rows' figures, items and unit summaries: checked on the rows, or
	// by the pass of a streamed report (domain.AnalyticStream).
	return figuresProblem(budgetOut(rep.Budget) || totalsOut(rep.BudgetTotals) || summaryOut(rep.Summary) || rep.FiguresOut())
}

// ABCFiguresProblem is FiguresProblem(rep) without reflection.
func ABCFiguresProblem(rep *domain.ABCReport) string {
	out := budgetOut(rep.Budget) || figuresOut(rep.Limits.A, rep.Limits.B, rep.Total) || summaryOut(rep.Summary)
	for i := range rep.Rows {
		r := &rep.Rows[i]
		out = out || figuresOut(r.Quantity, r.UnitPrice, r.Total, r.Percent, r.CumulativePercent)
	}
	return figuresProblem(out)
}
