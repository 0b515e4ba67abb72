package domain

import (
	"strings"
	"time"
)

// Company owns a reference database, budgets and users. Every other record
// carries the id of the company that owns it.
type Company struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// Department is a sector of a company (v1 `department_id`, v2 relationship
// `sector`). Each user belongs to one.
type Department struct {
	ID        string
	CompanyID string
	Name      string
	CreatedAt time.Time
}

// User is a person or integration that calls the API on behalf of a company.
// SecretHash is the SHA-256 of the secret token; the token itself is shown
// once, when the user is created, and never stored.
type User struct {
	ID           string
	CompanyID    string
	DepartmentID string
	Email        string
	Name         string
	SecretHash   []byte
	Disabled     bool
	CreatedAt    time.Time
	// TokensRevokedAt, when set, invalidates every access token of the user
	// issued at or before it (whole seconds, as tokens carry them).
	TokensRevokedAt time.Time
}

// Principal is the authenticated caller of an operation: whose company every
// read and write is scoped to, and who is recorded as the creator.
type Principal struct {
	UserID       string
	CompanyID    string
	DepartmentID string
}

// NormalizeEmail returns the form of an e-mail address that is stored and
// compared: trimmed and in lower case.
func NormalizeEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// ValidateUser checks the fields a user must have.
func (u *User) Validate() error {
	var v Validation
	if u.Email == "" {
		v.Add("/email", "is required")
	} else if at := strings.IndexByte(u.Email, '@'); at < 1 || at == len(u.Email)-1 || strings.ContainsAny(u.Email, " \t\r\n") {
		v.Add("/email", "is not an e-mail address")
	}
	if len(u.Name) > 200 {
		v.Add("/name", "is longer than 200 characters")
	}
	return v.Err()
}

// Group is a folder of a company's own resources and compositions.
type Group struct {
	ID           string
	CompanyID    string
	UserID       string
	DepartmentID string
	Description  string
	CreatedAt    time.Time
}

// Validate checks the fields a group must have.
func (g *Group) Validate() error {
	var v Validation
	checkText(&v, "/description", g.Description, true, 255)
	return v.Err()
}

// checkText adds a field error when a text is missing (if required) or too long.
func checkText(v *Validation, field, s string, required bool, max int) {
	if required && strings.TrimSpace(s) == "" {
		v.Add(field, "is required")
		return
	}
	if len([]rune(s)) > max {
		v.Add(field, "is longer than %d characters", max)
	}
}
