// Package domain is the pure core of costdb: the values a Brazilian
// construction cost database is made of (companies, users, groups, resources
// with prices per state, compositions, reference bank editions) and the
// calculations on them (exact decimal money, the rounding methods of the
// origin system, SINAPI-model and SICRO-model composition costs), and
// budgets: their tree of stages and lines, BDI, the synthetic and analytic
// reports and the ABC curve of resources (BudgetPricer, RankABC).
//
// The package does no I/O, reads no clock and keeps no global state, so any Go
// program can embed it: give it values, get values back. Money and
// coefficients are github.com/shopspring/decimal values, never float64.
package domain
