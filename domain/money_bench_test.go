package domain_test

import (
	"fmt"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// benchBudget is a budget of n lines in stages of 100 over the small world
// of these tests (bank and own resources and compositions), with quantities
// of two to four places and every fourth line a supply line.
func benchBudget(n int) *domain.Budget {
	b := &domain.Budget{ID: "b1", CompanyID: "c1", Code: "ORC", State: "MG", Banks: []domain.BankRef{mg08},
		BDIMode: domain.BDIOnUnitPrice, Rounding: domain.BudgetTruncate, BDI: dec("25.37"), SupplyBDI: dec("12.5")}
	codes := []struct {
		kind       domain.NodeKind
		bank, code string
	}{{domain.NodeResource, "SINAPI", "R1"}, {domain.NodeResource, "SINAPI", "R2"}, {domain.NodeComposition, "SINAPI", "BC1"},
		{domain.NodeComposition, "MYBASE", "OUTER"}, {domain.NodeResource, "MYBASE", "OR1"}}
	var stage *domain.BudgetNode
	for i := range n {
		if i%100 == 0 {
			b.Items = append(b.Items, domain.BudgetNode{Kind: domain.NodeStage, Description: fmt.Sprintf("Etapa %d", i/100)})
			stage = &b.Items[len(b.Items)-1]
		}
		c := codes[i%len(codes)]
		stage.Items = append(stage.Items, domain.BudgetNode{Kind: c.kind, Bank: c.bank, Code: c.code,
			Quantity: decimal.New(int64(i%9973*37+1), -int32(2+i%3))})
	}
	b.AssignIDs()
	_ = b.Walk(func(n *domain.BudgetNode, _ int) error {
		if n.Kind.IsLine() && len(n.ID)%4 == 0 {
			b.SupplyNodes = append(b.SupplyNodes, n.ID)
		}
		return nil
	})
	return b
}

// BenchmarkSyntheticStream: the streamed synthetic report of 10,000 lines,
// both passes.
func BenchmarkSyntheticStream(b *testing.B) {
	bud := benchBudget(10000)
	src := worldSource()
	b.ReportAllocs()
	for b.Loop() {
		rep, err := domain.NewBudgetPricer(src).SyntheticStream(bud, bud.Walk)
		if err != nil {
			b.Fatal(err)
		}
		if err := rep.Each(func(*domain.SyntheticRow) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPriceComposition: a SINAPI-model composition of 40 items priced.
func BenchmarkPriceComposition(b *testing.B) {
	c := &domain.Composition{ID: "c1", Code: "C1", State: "MG", Rounding: domain.Truncate2, Banks: []domain.BankRef{mg08}}
	for i := range 40 {
		code := []string{"R1", "R2", "E1"}[i%3]
		c.Items = append(c.Items, item("SINAPI", code, domain.KindResource, decimal.New(int64(i*1234567+1), -7).String()))
	}
	src := worldSource()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := domain.NewPricer(src).Price(c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLineTotal: one line total per method.
func BenchmarkLineTotal(b *testing.B) {
	q, p := dec("0.1234567"), dec("1234.56")
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range domain.RoundingMethods {
			_ = domain.LineTotal(m, q, p)
		}
	}
}
