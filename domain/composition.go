package domain

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// BankMyBase is the bank name of a company's own resources and compositions.
const BankMyBase = "MYBASE"

// ItemKind says whether an item of a composition is a resource or another
// composition.
type ItemKind string

// The item kinds.
const (
	KindResource    ItemKind = "resource"
	KindComposition ItemKind = "composition"
)

// Item is one line of a composition: a resource or a composition, from a
// bank edition of the composition or from the company's own base (bank
// MYBASE), with its coefficient (quantity per unit of the composition).
type Item struct {
	Bank     string
	Code     string
	Kind     ItemKind
	Quantity decimal.Decimal
	// Utilization is, for equipment in a SICRO-model composition, the share
	// of the time the equipment operates (0 to 1); the rest is idle time.
	// Absent means 1.
	Utilization decimal.NullDecimal
}

// SameLine reports whether a and b name the same line (bank, code and kind).
func (a Item) SameLine(b Item) bool {
	return a.Bank == b.Bank && a.Code == b.Code && a.Kind == b.Kind
}

// IsOwn reports whether the item comes from the company's own base.
func (a Item) IsOwn() bool { return a.Bank == BankMyBase }

// OwnResourceCodes are the codes of the company's own resources the
// composition's items name, in item order.
func (c *Composition) OwnResourceCodes() []string {
	var codes []string
	for _, it := range c.Items {
		if it.IsOwn() && it.Kind == KindResource {
			codes = append(codes, it.Code)
		}
	}
	return codes
}

// BankRef is a bank edition attached to a composition: which edition of a
// reference bank its items of that bank are priced from.
type BankRef struct {
	Name   string // bank name, upper case: SINAPI, SICRO3…
	State  string // UF
	Month  string // MM/YYYY
	Region string // optional region within the state
	Report bool   // the report flag (`relatorio`)
	// AskedRegion is a region a client named for a bank whose editions
	// have no regions (SINAPI, SICRO): kept and shown back, never part of
	// the edition key.
	AskedRegion string
	// WithLaborCharges is the regime a client said it prices the bank in
	// (v1 `with_labor_charges`): true is with full labour charges (não
	// desonerado), false without (desonerado), nil not said. The edition
	// must publish that regime's prices.
	WithLaborCharges *bool
}

// Label names the edition for a message: "SINAPI MG 08/2026", with the
// region after the month when there is one.
func (b BankRef) Label() string {
	s := b.Name + " " + b.State + " " + b.Month
	if b.Region != "" {
		s += " " + b.Region
	}
	return s
}

// EditionKey returns the key of the edition the reference names.
func (b BankRef) EditionKey() string { return EditionKey(b.Name, b.State, b.Month, b.Region) }

// Validate checks the reference. The prefix is the JSON pointer of the entry.
func (b BankRef) Validate(prefix string) error {
	var v Validation
	if b.Name == "" {
		v.Add(prefix+"/name", "is required")
	} else if b.Name == BankMyBase {
		v.Add(prefix+"/name", "MYBASE is the company's own base, not a bank edition")
	}
	if !ValidState(b.State) {
		v.Add(prefix+"/location", "is not a state code")
	}
	if !ValidMonth(b.Month) {
		v.Add(prefix+"/version", "must be a month as MM/YYYY")
	}
	checkText(&v, prefix+"/region", b.Region, false, 60)
	return v.Err()
}

// NormalizeBank returns the canonical spelling of a bank name: trimmed, upper case.
func NormalizeBank(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// Composition is a company's own cost composition: a unit of service (one m²
// of masonry, say) made of items, priced in one state from the bank editions
// it names and from the company's own base.
type Composition struct {
	ID           string
	CompanyID    string
	UserID       string
	DepartmentID string
	GroupID      string
	Code         string
	SecondCode   string
	Description  string
	Type         string // composition class (SINAPI class code)
	Unit         string
	State        string
	IsSicro      bool // SICRO model (equipment, labour, team production, FIC)
	Labor        bool // a labour composition (the origin system's `labor` flag)
	Rounding     RoundingMethod
	Note         string
	Tags         []string // free labels (CheckTags)
	// SICRO model only.
	TeamProduction decimal.Decimal // units produced per hour by the team
	FIC            decimal.Decimal // rain factor (fator de influência de chuvas)
	LaborAddition  decimal.Decimal // percent added to the labour hourly cost
	Banks          []BankRef       // sorted by name, one per bank
	Items          []Item          // in the order they were first added
	CreatedAt      time.Time

	// LabourCharges, when set, is the company's own social charges
	// percentage: the bank labour resources of the composition are priced
	// at their price without charges × (1 + LabourCharges / 100)
	// (LabourPrice); null prices them at the bank's price.
	LabourCharges decimal.NullDecimal
}

// DefaultRounding is the calculation method a composition gets when it is
// created without one: truncate to 2 places for the SINAPI model (as Caixa),
// truncate to 4 places for the SICRO model (as DNIT).
func DefaultRounding(isSicro bool) RoundingMethod {
	if isSicro {
		return Truncate4
	}
	return Truncate2
}

// FieldTeamProduction names the team production where a composition's
// missing list names a field it needs (MissingPrice.Field).
const FieldTeamProduction = "team_production"

// UnsetFields names the fields the composition still needs before it has a
// unit cost: a SICRO-model composition divides its hourly execution cost by
// its team production (CUE = CHE / team production), so without one (0, as
// created by clients that send 0 as their default) it has none. A SICRO
// rain factor (fic) of 0 is a real value (no rain influence) and is not
// named. Nil when nothing is missing.
func (c *Composition) UnsetFields() []string {
	if c.IsSicro && !c.TeamProduction.IsPositive() {
		return []string{FieldTeamProduction}
	}
	return nil
}

// Validate checks the fields of the composition itself (not whether its items
// exist, which needs the store).
func (c *Composition) Validate() error {
	var v Validation
	checkCode(&v, "/code", c.Code)
	checkText(&v, "/second_code", c.SecondCode, false, 60)
	checkText(&v, "/description", c.Description, true, 1000)
	checkText(&v, "/unit", c.Unit, true, 20)
	checkText(&v, "/note", c.Note, false, 4000)
	CheckTags(&v, "/tags", c.Tags)
	if c.Type != "" && !ValidCompositionClass(c.Type) {
		v.Add("/type", "is not a composition class (see the composition classes catalogue)")
	}
	if !ValidState(c.State) {
		v.Add("/state", "is not a state code")
	}
	if !c.Rounding.Valid() {
		v.Add("/rounding_type", "must be 1, 2, 3 or 4")
	}
	// The SICRO figures are kept on a SINAPI-model composition too (they
	// count when it becomes SICRO-model), so none may be negative there. A
	// team production of 0 is "not set yet" (real v1 clients send 0 as
	// their default): accepted, and the composition is priced without a
	// unit cost until it is set (UnsetFields).
	if c.TeamProduction.IsNegative() {
		v.Add("/team_production", "must not be negative")
	}
	if c.FIC.IsNegative() {
		v.Add("/fic", "must not be negative")
	}
	if c.LaborAddition.IsNegative() {
		v.Add("/adc_labor", "must not be negative")
	}
	ValidateLabourCharges(&v, "/labour_charges", c.LabourCharges)
	for i, b := range c.Banks {
		_ = v.Merge("", b.Validate("/banks/"+strconv.Itoa(i)))
	}
	for i, it := range c.Items {
		_ = v.Merge("", it.Validate("/items/"+strconv.Itoa(i)))
	}
	return v.Err()
}

// Validate checks an item's own fields.
func (a Item) Validate(prefix string) error {
	var v Validation
	if a.Bank == "" {
		v.Add(prefix+"/bank", "is required")
	}
	checkCode(&v, prefix+"/code", a.Code)
	if a.Kind != KindResource && a.Kind != KindComposition {
		v.Add(prefix+"/resource", "must say whether the item is a resource or a composition")
	}
	if !a.Quantity.IsPositive() {
		v.Add(prefix+"/quantity", "must be greater than zero")
	} else if !a.Quantity.Truncate(7).Equal(a.Quantity) {
		v.Add(prefix+"/quantity", "has more than 7 decimal places")
	}
	if a.Utilization.Valid && (a.Utilization.Decimal.IsNegative() || a.Utilization.Decimal.GreaterThan(decimal.NewFromInt(1))) {
		v.Add(prefix+"/utilization", "must be between 0 and 1")
	}
	return v.Err()
}

// Bank returns the edition the composition names for bank, if any.
func (c *Composition) Bank(name string) (BankRef, bool) {
	for _, b := range c.Banks {
		if b.Name == name {
			return b, true
		}
	}
	return BankRef{}, false
}

// SetBank attaches an edition, replacing the one of the same bank.
func (c *Composition) SetBank(b BankRef) {
	for i := range c.Banks {
		if c.Banks[i].Name == b.Name {
			c.Banks[i] = b
			return
		}
	}
	c.Banks = append(c.Banks, b)
	sort.Slice(c.Banks, func(i, j int) bool { return c.Banks[i].Name < c.Banks[j].Name })
}

// SetItem adds an item, or sets the quantity of the line already there with
// the same bank, code and kind, so that a retried request gives the same
// composition.
func (c *Composition) SetItem(it Item) {
	for i := range c.Items {
		if c.Items[i].SameLine(it) {
			c.Items[i].Quantity = it.Quantity
			c.Items[i].Utilization = it.Utilization
			return
		}
	}
	c.Items = append(c.Items, it)
}

// RemoveItem removes the line with the same bank, code and kind as it and
// reports whether there was one.
func (c *Composition) RemoveItem(it Item) bool {
	for i := range c.Items {
		if c.Items[i].SameLine(it) {
			c.Items = append(c.Items[:i:i], c.Items[i+1:]...)
			return true
		}
	}
	return false
}

// Clone returns a deep copy of c. An empty list stays empty and a missing
// one missing: the stores keep them apart.
func (c *Composition) Clone() *Composition {
	d := *c
	d.Banks = slices.Clone(c.Banks)
	d.Items = slices.Clone(c.Items)
	d.Tags = slices.Clone(c.Tags)
	return &d
}
