package domain

import (
	"sort"

	"github.com/shopspring/decimal"
)

// PriceHistory is a bank item's price in one state and regime across the
// imported editions of its bank, oldest first.
type PriceHistory struct {
	Bank, State, Code string
	Kind              ItemKind
	Regime            Regime
	Description, Unit string // from the latest edition that has the item
	Points            []PricePoint
}

// PricePoint is the item's price in one edition. Priced is false when the
// edition has the item but no price of the regime (the point carries 0).
type PricePoint struct {
	Month, Region string
	Price         decimal.Decimal
	Priced        bool
}

// MonthOrder is a month "MM/YYYY" as "YYYYMM", which sorts in time order.
func MonthOrder(m string) string {
	if len(m) != 7 {
		return m
	}
	return m[3:] + m[:2]
}

// SortPoints puts the points in time order (then by region).
func (h *PriceHistory) SortPoints() {
	sort.SliceStable(h.Points, func(i, j int) bool {
		a, b := MonthOrder(h.Points[i].Month), MonthOrder(h.Points[j].Month)
		if a != b {
			return a < b
		}
		return h.Points[i].Region < h.Points[j].Region
	})
}
