package domain_test

import (
	"errors"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// longBudget is a budget of n resource lines in one stage over the test
// world.
func longBudget(n int) *domain.Budget {
	b := &domain.Budget{ID: "b1", CompanyID: "c1", Code: "ORC", State: "MG", Banks: []domain.BankRef{mg08},
		BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate, BDI: decimal.New(25, 0)}
	stage := domain.BudgetNode{Kind: domain.NodeStage, Description: "Etapa"}
	for i := range n {
		stage.Items = append(stage.Items, domain.BudgetNode{Kind: domain.NodeResource, Bank: "SINAPI", Code: "R1", Quantity: decimal.New(int64(i+1), -2)})
	}
	b.Items = []domain.BudgetNode{stage}
	b.AssignIDs()
	return b
}

// TestEachInterrupted: a report's Each calls the check given to Interrupt
// before the first row and every InterruptEvery rows, and stops with its
// error: streamed or held, synthetic or analytic, the rows handed out stop
// at the first check that fails.
func TestEachInterrupted(t *testing.T) {
	const lines = 10 * domain.InterruptEvery
	b := longBudget(lines)
	gone := errors.New("client gone")
	type report interface {
		Interrupt(func() error)
		Len() int
	}
	for name, get := range map[string]func() (report, func(func() error) error, error){
		"synthetic streamed": func() (report, func(func() error) error, error) {
			r, err := domain.NewBudgetPricer(worldSource()).SyntheticStream(b, b.Walk)
			return r, func(f func() error) error { return r.Each(func(*domain.SyntheticRow) error { return f() }) }, err
		},
		"synthetic held": func() (report, func(func() error) error, error) {
			r, err := domain.NewBudgetPricer(worldSource()).Synthetic(b)
			return r, func(f func() error) error { return r.Each(func(*domain.SyntheticRow) error { return f() }) }, err
		},
		"analytic streamed": func() (report, func(func() error) error, error) {
			r, err := domain.NewBudgetPricer(worldSource()).AnalyticStream(b, b.Walk)
			return r, func(f func() error) error { return r.Each(func(*domain.AnalyticRow) error { return f() }) }, err
		},
		"analytic held": func() (report, func(func() error) error, error) {
			r, err := domain.NewBudgetPricer(worldSource()).Analytic(b)
			return r, func(f func() error) error { return r.Each(func(*domain.AnalyticRow) error { return f() }) }, err
		},
	} {
		r, each, err := get()
		if err != nil {
			t.Fatal(err)
		}
		if r.Len() != lines+1 {
			t.Fatalf("%s: %d rows", name, r.Len())
		}
		// Not interrupted: every row.
		rows := 0
		if err := each(func() error { rows++; return nil }); err != nil || rows != lines+1 {
			t.Fatalf("%s: %d rows, %v", name, rows, err)
		}
		// The client goes away at row 300: the check that follows fails.
		rows, checks := 0, 0
		away := false
		r.Interrupt(func() error {
			checks++
			if away {
				return gone
			}
			return nil
		})
		err = each(func() error {
			rows++
			if rows == 300 {
				away = true
			}
			return nil
		})
		if !errors.Is(err, gone) || rows != 2*domain.InterruptEvery || checks != 3 {
			t.Errorf("%s: %d rows, %d checks, %v; want %d rows, 3 checks, the check's error", name, rows, checks, err, 2*domain.InterruptEvery)
		}
		// Gone before the first row: none.
		rows = 0
		r.Interrupt(func() error { return gone })
		if err := each(func() error { rows++; return nil }); !errors.Is(err, gone) || rows != 0 {
			t.Errorf("%s: %d rows, %v after the client went away", name, rows, err)
		}
	}
}
