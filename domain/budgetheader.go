package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// BudgetHeader is a budget without its tree of nodes: what a list of
// budgets needs to show and to find the budgets to read in full.
type BudgetHeader struct {
	ID           string
	CompanyID    string
	UserID       string
	DepartmentID string
	Code         string
	Description  string
	Client       string
	State        string
	Tags         []string
	Banks        []BankRef
	Desonerado   bool
	BDI          decimal.Decimal
	BDIMode      BDIMode
	Rounding     BudgetRounding
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Header returns the budget's header (a copy: its Banks are not shared).
func (b *Budget) Header() *BudgetHeader {
	return &BudgetHeader{
		ID: b.ID, CompanyID: b.CompanyID, UserID: b.UserID, DepartmentID: b.DepartmentID,
		Code: b.Code, Description: b.Description, Client: b.Client, State: b.State, Tags: append([]string(nil), b.Tags...),
		Banks: append([]BankRef(nil), b.Banks...), Desonerado: b.Desonerado,
		BDI: b.BDI, BDIMode: b.BDIMode, Rounding: b.Rounding,
		CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt,
	}
}
