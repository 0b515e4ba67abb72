package domain

import (
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Regime is the payroll-tax regime a price belongs to. SINAPI and SICRO
// publish every price in both: não desonerado (labour carries the employer's
// 20% social-security charge) and desonerado (Law 12.546/2011).
type Regime int

// The two regimes.
const (
	NaoDesonerado Regime = iota
	Desonerado
)

// String names the regime as the CLI and the API spell it.
func (r Regime) String() string {
	if r == Desonerado {
		return "desonerado"
	}
	return "nao-desonerado"
}

// PriceLine is the set of four prices of a resource in one state. For
// equipment, PND/PD are the productive (operating) hourly cost and PNDI/PDI
// the idle hourly cost; for anything else PNDI/PDI usually repeat PND/PD.
type PriceLine struct {
	PND  decimal.Decimal // não desonerado
	PD   decimal.Decimal // desonerado
	PNDI decimal.Decimal // não desonerado, idle
	PDI  decimal.Decimal // desonerado, idle
}

// Productive returns the productive price in regime r.
func (p PriceLine) Productive(r Regime) decimal.Decimal {
	if r == Desonerado {
		return p.PD
	}
	return p.PND
}

// Idle returns the idle price in regime r.
func (p PriceLine) Idle(r Regime) decimal.Decimal {
	if r == Desonerado {
		return p.PDI
	}
	return p.PNDI
}

// Validate checks that no price is negative.
func (p PriceLine) Validate(prefix string) error {
	var v Validation
	for _, f := range []struct {
		name string
		d    decimal.Decimal
	}{{"pnd", p.PND}, {"pd", p.PD}, {"pndi", p.PNDI}, {"pdi", p.PDI}} {
		if f.d.IsNegative() {
			v.Add(prefix+"/"+f.name, "must not be negative")
		}
	}
	return v.Err()
}

// Resource is an input of a composition (material, labour, equipment…) in a
// company's own base, with its prices per state.
type Resource struct {
	ID           string
	CompanyID    string
	UserID       string
	DepartmentID string
	GroupID      string
	Code         string
	SecondCode   string
	Description  string
	Type         int
	Unit         string
	IsSicro      bool
	Status       bool
	Note         string
	Tags         []string // free labels (CheckTags)
	Locals       map[string]PriceLine
	CreatedAt    time.Time
}

// States returns the states the resource has prices for, sorted.
func (r *Resource) States() []string {
	out := make([]string, 0, len(r.Locals))
	for s := range r.Locals {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// Validate checks the fields a resource must have. Field names are those of
// the API (`code`, `locals/MG/pnd`…).
func (r *Resource) Validate() error {
	var v Validation
	checkCode(&v, "/code", r.Code)
	checkText(&v, "/second_code", r.SecondCode, false, 60)
	checkText(&v, "/description", r.Description, true, 1000)
	checkText(&v, "/unit", r.Unit, true, 20)
	checkText(&v, "/note", r.Note, false, 4000)
	CheckTags(&v, "/tags", r.Tags)
	if !ValidResourceType(r.Type) {
		v.Add("/type", "is not a resource type (see the resource types catalogue)")
	}
	for _, st := range r.States() {
		if !ValidState(st) {
			v.Add("/locals/"+st, "is not a state code")
			continue
		}
		_ = v.Merge("", r.Locals[st].Validate("/locals/"+st))
	}
	return v.Err()
}

// Normalize applies the rule of SICRO resources: they carry one price per
// state (seed rule 1), so each state's four prices all take its pnd.
func (r *Resource) Normalize() {
	if !r.IsSicro {
		return
	}
	for st, l := range r.Locals {
		r.Locals[st] = PriceLine{PND: l.PND, PD: l.PND, PNDI: l.PND, PDI: l.PND}
	}
}

// Clone returns a deep copy of r.
func (r *Resource) Clone() *Resource {
	c := *r
	c.Locals = make(map[string]PriceLine, len(r.Locals))
	for k, p := range r.Locals {
		c.Locals[k] = p
	}
	return &c
}

// checkCode adds a field error when a code is missing, too long or holds
// characters that would not survive a URL query.
func checkCode(v *Validation, field, code string) {
	if code == "" {
		v.Add(field, "is required")
		return
	}
	if utf8.RuneCountInString(code) > 60 {
		v.Add(field, "is longer than 60 characters")
		return
	}
	for _, c := range code {
		// C0, DEL and C1 (the document's pattern on every code says the same)
		if unicode.IsControl(c) {
			v.Add(field, "contains a control character")
			return
		}
	}
	if code[0] == ' ' || code[len(code)-1] == ' ' {
		v.Add(field, "must not start or end with a space")
	}
}

// MaxTags and MaxTagLength bound the free labels of a resource, a
// composition or a budget.
const (
	MaxTags      = 20
	MaxTagLength = 50
)

// CheckTags adds the field errors of a record's tags: at most MaxTags,
// each one not blank, with no space around it, of at most MaxTagLength
// characters, and none twice. A tag is free text; a list filtered by a tag
// keeps the records that carry exactly it.
func CheckTags(v *Validation, field string, tags []string) {
	if len(tags) > MaxTags {
		v.Add(field, "has more than %d tags", MaxTags)
	}
	seen := make(map[string]bool, len(tags))
	for i, t := range tags {
		ptr := field + "/" + strconv.Itoa(i)
		switch {
		case strings.TrimSpace(t) == "":
			v.Add(ptr, "must not be blank")
		case strings.TrimSpace(t) != t:
			v.Add(ptr, "must not begin or end with a space")
		case len([]rune(t)) > MaxTagLength:
			v.Add(ptr, "is longer than %d characters", MaxTagLength)
		case seen[t]:
			v.Add(ptr, "is already a tag of the record")
		}
		seen[t] = true
	}
}
