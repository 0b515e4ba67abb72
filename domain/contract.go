package domain

import (
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Contract is a contract made from a frozen budget version: its lines are
// the version's lines with their contracted quantity and their unit price
// with BDI as the version prices them (BudgetPricer.Synthetic over the
// version's snapshot, BDIRule.Line), so a contract's figures never change
// with the banks. BaseMonth and IndexName are kept for the readjustment
// (a measurement's readjustment is computed elsewhere from them).
type Contract struct {
	ID            string
	CompanyID     string
	BudgetID      string
	VersionNumber int
	VersionHash   string
	Number        string // the contract's own number, as signed
	Contractor    string
	StartDate     string          // YYYY-MM-DD
	BaseMonth     string          // YYYY-MM: base month of the readjustment
	Retention     decimal.Decimal // percent withheld from each measurement
	IndexName     string          // readjustment index (INCC, IPCA…)
	Renovation    bool            // declared renovation: additions up to 50%
	BDI           BDIRule         // the version's
	Lines         []ContractLine  // in the version's tree order; amendments append
	CreatedAt     time.Time
}

// ContractLine is one line of a contract.
type ContractLine struct {
	ID          string // the budget line's node ID; an amendment's new line gets "A<n>.<i>"
	Number      string // the line's number in the budget ("1.2"); "A1.1" for new lines
	Stage       string // the number of its top-level stage ("1"); "" at the top level
	StageName   string
	Bank        string
	Month       string
	Code        string
	Description string
	Unit        string
	Quantity    decimal.Decimal // contracted, before amendments
	UnitPrice   decimal.Decimal
	// UnitPriceWithBDI is the version's figure for the line (its own BDI
	// rate when it is a supply line).
	UnitPriceWithBDI decimal.Decimal
	Supply           bool
	Amendment        int // the amendment that added the line; 0 for the version's lines
}

// ContractInput is what a client gives to make a contract.
type ContractInput struct {
	Number     string
	Contractor string
	StartDate  string
	BaseMonth  string
	Retention  decimal.Decimal
	IndexName  string
	Renovation bool
}

// Validate checks the input, every field at once. Pointers are JSON:API
// attribute names.
func (in *ContractInput) Validate() error {
	var v Validation
	if strings.TrimSpace(in.Number) == "" {
		v.Add("/number", "is required")
	}
	if strings.TrimSpace(in.Contractor) == "" {
		v.Add("/contractor", "is required")
	}
	if _, err := time.Parse(time.DateOnly, in.StartDate); err != nil {
		v.Add("/start_date", "must be a date YYYY-MM-DD")
	}
	if _, err := time.Parse("2006-01", in.BaseMonth); err != nil {
		v.Add("/base_month", "must be a month YYYY-MM")
	}
	if in.Retention.IsNegative() || in.Retention.GreaterThan(decimal.NewFromInt(100)) || in.Retention.Exponent() < -2 {
		v.Add("/retention", "must be a percent from 0 to 100 with at most 2 decimal places")
	}
	if strings.TrimSpace(in.IndexName) == "" {
		v.Add("/index", "is required (the readjustment index, such as INCC)")
	}
	return v.Err()
}

// NewContract makes a contract from a frozen version: the input checked,
// the version opened (its hash checked) and priced from its snapshot
// alone. A version with a line it could not price, or whose BDI is on the
// final total (no unit price with BDI to measure with), is refused.
func NewContract(v *BudgetVersion, in ContractInput) (*Contract, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	b, bp, err := v.Open()
	if err != nil {
		return nil, err
	}
	if b.BDIMode == BDIOnFinalTotal {
		return nil, FieldErrorf("/version", "version %d of the budget has its BDI on the final total: a contract measures lines at their unit price with BDI, so the budget's BDI must be on the unit price", v.Number)
	}
	r, err := bp.Synthetic(b)
	if err != nil {
		return nil, err
	}
	if len(r.Missing) > 0 {
		return nil, FieldErrorf("/version", "version %d of the budget has %d line(s) without a price (first: %s)", v.Number, len(r.Missing), r.Missing[0].Number)
	}
	c := &Contract{CompanyID: v.CompanyID, BudgetID: v.BudgetID, VersionNumber: v.Number, VersionHash: v.Hash,
		Number: strings.TrimSpace(in.Number), Contractor: strings.TrimSpace(in.Contractor), StartDate: in.StartDate,
		BaseMonth: in.BaseMonth, Retention: in.Retention, IndexName: strings.TrimSpace(in.IndexName),
		Renovation: in.Renovation, BDI: b.BDIRule()}
	var stage, stageName string
	for _, row := range r.Rows {
		if row.Kind == NodeStage {
			if row.Depth == 1 {
				stage, stageName = row.Number, row.Description
			}
			continue
		}
		if row.Depth == 1 {
			stage, stageName = "", ""
		}
		c.Lines = append(c.Lines, ContractLine{ID: row.NodeID, Number: row.Number, Stage: stage, StageName: stageName,
			Bank: row.Bank, Month: row.Month, Code: row.Code, Description: row.Description, Unit: row.Unit,
			Quantity: row.Quantity, UnitPrice: row.UnitPrice, UnitPriceWithBDI: row.UnitPriceWithBDI, Supply: row.Supply})
	}
	if len(c.Lines) == 0 {
		return nil, FieldErrorf("/version", "version %d of the budget has no lines to contract", v.Number)
	}
	return c, nil
}

// Line returns the contract's line with the ID.
func (c *Contract) Line(id string) (*ContractLine, bool) {
	i := slices.IndexFunc(c.Lines, func(l ContractLine) bool { return l.ID == id })
	if i < 0 {
		return nil, false
	}
	return &c.Lines[i], true
}

// Value is the value with BDI of a quantity of a line: the line's total
// with BDI by the contract's BDIRule (Line, or LineSupply for a supply
// line: lineValue), the one rule a budget's lines are priced by.
func (c *Contract) Value(l *ContractLine, qty decimal.Decimal) decimal.Decimal {
	return c.BDI.lineValue(l.UnitPrice, l.Supply)(amountOf(qty)).Decimal()
}

// InitialValue is the contract's value as signed: the sum of its version
// lines' values (Value of their contracted quantity).
func (c *Contract) InitialValue() decimal.Decimal {
	sum := decimal.Zero
	for i := range c.Lines {
		if c.Lines[i].Amendment == 0 {
			sum = sum.Add(c.Value(&c.Lines[i], c.Lines[i].Quantity))
		}
	}
	return sum
}

// Record statuses of measurements and amendments.
type RecordStatus string

// The statuses: draft → submitted → approved, or rejected (back to draft
// with a reason; the record keeps the status "draft" and the reason).
const (
	StatusDraft     RecordStatus = "draft"
	StatusSubmitted RecordStatus = "submitted"
	StatusApproved  RecordStatus = "approved"
)

// workflow moves a record's status; an approved record is immutable.
type workflow struct {
	Status       RecordStatus
	RejectReason string
}

func (w *workflow) editable(what string, n int) error {
	switch w.Status {
	case StatusApproved:
		return Errorf(ECONFLICT, "%s %d is approved: it can no longer change", what, n)
	case StatusSubmitted:
		return Errorf(ECONFLICT, "%s %d is submitted: reject it to change it", what, n)
	}
	return nil
}

func (w *workflow) submit(what string, n int) error {
	if w.Status != StatusDraft {
		return Errorf(ECONFLICT, "%s %d is %s: only a draft can be submitted", what, n, w.Status)
	}
	w.Status, w.RejectReason = StatusSubmitted, ""
	return nil
}

func (w *workflow) approve(what string, n int) error {
	if w.Status != StatusSubmitted {
		return Errorf(ECONFLICT, "%s %d is %s: only a submitted one can be approved", what, n, w.Status)
	}
	w.Status = StatusApproved
	return nil
}

func (w *workflow) reject(what string, n int, reason string) error {
	if strings.TrimSpace(reason) == "" {
		return FieldErrorf("/reason", "is required: say why the %s is rejected", what)
	}
	if w.Status != StatusSubmitted {
		return Errorf(ECONFLICT, "%s %d is %s: only a submitted one can be rejected", what, n, w.Status)
	}
	w.Status, w.RejectReason = StatusDraft, strings.TrimSpace(reason)
	return nil
}
