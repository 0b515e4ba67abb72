package domain

import (
	"regexp"
	"strconv"

	"github.com/shopspring/decimal"
)

// ChargesTable is a reference bank's labour charges (encargos sociais)
// table for one state, month and regime, as the bank publishes it: shared
// reference data (no company), read by a company to decide its own charges
// (LabourPrice). The percentages are kept exactly as the file holds them.
type ChargesTable struct {
	Bank   string // SICRO3, SINAPI
	State  string // UF
	Month  string // MM/YYYY
	Regime Regime
	// Items names the charge items of the table, in the file's order (A1
	// … A9, B1 … B10, C1 … C5, D1, D2 for DNIT); nil when the file gives
	// only totals.
	Items []string
	Rows  []ChargesRow
}

// ChargesRow is the charges of one labour category (SINAPI: horista or
// mensalista) or labour code (SICRO: P9801 …).
type ChargesRow struct {
	Code        string
	Description string
	Unit        string // "h" (horista) or "mês" (mensalista)
	// Monthly is true for a mensalista, false for a horista.
	Monthly bool
	// Items are the percentages of the table's Items, in the same order
	// (percent: 20 for "20.00%"); nil when the table has no items.
	Items []decimal.Decimal
	// Total is the total charges in percent (109.62 for "109.62%").
	Total decimal.Decimal
}

var chargesKeyPart = regexp.MustCompile(`^[A-Z0-9]{1,20}$`)
var chargesMonth = regexp.MustCompile(`^(0[1-9]|1[0-2])/[0-9]{4}$`)

// Key is the table's store key: BANK/UF/YYYY-MM/regime.
func (t *ChargesTable) Key() string {
	return ChargesKey(t.Bank, t.State, t.Month, t.Regime)
}

// ChargesKey is the store key of a charges table.
func ChargesKey(bank, state, month string, r Regime) string {
	m := month
	if len(month) == 7 {
		m = month[3:] + "-" + month[:2]
	}
	return bank + "/" + state + "/" + m + "/" + r.String()
}

// Validate checks a table before it is stored: bank, state and month well
// formed, at least one row, codes unique, every row with as many item
// percentages as the table has items, no negative percentage. All
// problems at once.
func (t *ChargesTable) Validate() error {
	var v Validation
	if !chargesKeyPart.MatchString(t.Bank) {
		v.Add("bank", "must be 1 to 20 upper-case letters or digits")
	}
	if !chargesKeyPart.MatchString(t.State) || len(t.State) != 2 {
		v.Add("state", "must be a UF (two letters)")
	}
	if !chargesMonth.MatchString(t.Month) {
		v.Add("month", "must be MM/YYYY")
	}
	if t.Regime != NaoDesonerado && t.Regime != Desonerado {
		v.Add("regime", "unknown regime")
	}
	if len(t.Rows) == 0 {
		v.Add("rows", "the table lists no labour code")
	}
	seen := map[string]bool{}
	for i, r := range t.Rows {
		switch {
		case r.Code == "":
			v.Add(rowField(i, "code"), "is empty")
		case seen[r.Code]:
			v.Add(rowField(i, "code"), "%s is listed twice", r.Code)
		}
		seen[r.Code] = true
		if len(r.Items) != 0 && len(r.Items) != len(t.Items) {
			v.Add(rowField(i, "items"), "has %d percentages for %d items", len(r.Items), len(t.Items))
		}
		if r.Total.IsNegative() {
			v.Add(rowField(i, "total"), "must not be negative")
		}
		for _, p := range r.Items {
			if p.IsNegative() {
				v.Add(rowField(i, "items"), "must not be negative")
				break
			}
		}
	}
	return v.Err()
}

func rowField(i int, f string) string {
	return "rows/" + strconv.Itoa(i) + "/" + f
}
