package domain

import (
	"testing"

	"github.com/shopspring/decimal"
)

// moneyLines are the prices and quantities of the money path's benchmarks:
// prices with 2 places up to 100,000.00, quantities with up to 7 places
// (docs/decisions.md, "shopspring/decimal stays the type"; the same inputs
// as the library comparison there).
func moneyLines(n int) (prices, quantities []decimal.Decimal) {
	for i := range n {
		prices = append(prices, decimal.New(int64(i*7919%10_000_000+1), -2))
		quantities = append(quantities, decimal.New(int64(i*104729%100_000_000+1), -int32(i%8)))
	}
	return prices, quantities
}

// BenchmarkMoneyPath: the figures of 10,000 budget lines (line total, unit
// price with BDI, total with BDI, each truncated to centavos) and their
// sums, on the one money path (amount, mulCut).
func BenchmarkMoneyPath(b *testing.B) {
	prices, quantities := moneyLines(10000)
	r := BDIRule{Rate: Dec("25.37"), Mode: BDIOnUnitPrice, Rounding: BudgetTruncate}
	factor := amountOf(r.factor())
	b.ReportAllocs()
	for b.Loop() {
		var total, withBDI amount
		for i := range prices {
			f := r.line(amountOf(prices[i]), amountOf(quantities[i]), factor)
			total, withBDI = total.add(f.total), withBDI.add(f.withBDI)
		}
		_ = total.Decimal()
		_ = withBDI.Decimal()
	}
}

// BenchmarkMoneyPathDecimal is BenchmarkMoneyPath in shopspring/decimal
// alone (the rule as the test oracle computes it).
func BenchmarkMoneyPathDecimal(b *testing.B) {
	prices, quantities := moneyLines(10000)
	r := BDIRule{Rate: Dec("25.37"), Mode: BDIOnUnitPrice, Rounding: BudgetTruncate}
	b.ReportAllocs()
	for b.Loop() {
		var total, withBDI decimal.Decimal
		for i := range prices {
			f := oracleLine(r, r.Rate, prices[i], quantities[i])
			total, withBDI = total.Add(f.Total), withBDI.Add(f.TotalWithBDI)
		}
	}
}
