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

// SyntheticFiguresProblem is FiguresProblem(rep) without reflection: the
// budget's own figures here, the report's by the domain (checked on the
// rows, or by the first pass of a streamed report).
func SyntheticFiguresProblem(rep *domain.SyntheticReport) string {
	return figuresProblem(budgetOut(rep.Budget) || rep.FiguresOut())
}

// AnalyticFiguresProblem is FiguresProblem(rep) without reflection.
func AnalyticFiguresProblem(rep *domain.AnalyticReport) string {
	return figuresProblem(budgetOut(rep.Budget) || rep.FiguresOut())
}

// ABCFiguresProblem is FiguresProblem(rep) without reflection.
func ABCFiguresProblem(rep *domain.ABCReport) string {
	return figuresProblem(budgetOut(rep.Budget) || rep.FiguresOut())
}
