package boltstore

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/costdb/costdb/domain"
)

// The on-disk records. Each is JSON-encoded and private to this package, so
// that a change to a domain struct never changes the file format by
// accident: a new domain field has to be added here, on purpose. Decimals are
// strings (exact, keeping their scale: "1.50" stays "1.50"); times are
// RFC 3339 strings in UTC with nanoseconds, "" for the zero time.

type companyRecord struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
}

type departmentRecord struct {
	ID        string `json:"id"`
	CompanyID string `json:"company_id"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
}

type userRecord struct {
	ID           string `json:"id"`
	CompanyID    string `json:"company_id"`
	DepartmentID string `json:"department_id"`
	Email        string `json:"email"`
	Name         string `json:"name"`
	SecretHash   []byte `json:"secret_hash"` // base64
	Disabled     bool   `json:"disabled"`
	CreatedAt    string `json:"created_at"`
	// TokensRevokedAt is absent in records written before it existed.
	TokensRevokedAt string `json:"tokens_revoked_at,omitempty"`
}

type groupRecord struct {
	ID           string `json:"id"`
	CompanyID    string `json:"company_id"`
	UserID       string `json:"user_id"`
	DepartmentID string `json:"department_id"`
	Description  string `json:"description"`
	CreatedAt    string `json:"created_at"`
}

type priceLineRecord struct {
	PND  string `json:"pnd"`
	PD   string `json:"pd"`
	PNDI string `json:"pndi"`
	PDI  string `json:"pdi"`
}

type resourceRecord struct {
	ID           string                     `json:"id"`
	CompanyID    string                     `json:"company_id"`
	UserID       string                     `json:"user_id"`
	DepartmentID string                     `json:"department_id"`
	GroupID      string                     `json:"group_id"`
	Code         string                     `json:"code"`
	SecondCode   string                     `json:"second_code"`
	Description  string                     `json:"description"`
	Type         int                        `json:"type"`
	Unit         string                     `json:"unit"`
	IsSicro      bool                       `json:"is_sicro"`
	Status       bool                       `json:"status"`
	Note         string                     `json:"note"`
	Locals       map[string]priceLineRecord `json:"locals"`
	CreatedAt    string                     `json:"created_at"`
	Tags         []string                   `json:"tags,omitempty"` // absent: none
}

type bankRefRecord struct {
	Name   string `json:"name"`
	State  string `json:"state"`
	Month  string `json:"month"`
	Region string `json:"region"`
	Report bool   `json:"report"`
	// Written only when set, so older records read unchanged.
	AskedRegion      string `json:"asked_region,omitempty"`
	WithLaborCharges *bool  `json:"with_labor_charges,omitempty"`
}

type itemRecord struct {
	Bank        string  `json:"bank"`
	Code        string  `json:"code"`
	Kind        string  `json:"kind"`
	Quantity    string  `json:"quantity"`
	Utilization *string `json:"utilization"` // null when absent
}

// compositionKeys is the part of a compositionRecord its indexes are keyed
// by: decoding it skips the items.
type compositionKeys struct {
	CompanyID string `json:"company_id"`
	Code      string `json:"code"`
	State     string `json:"state"`
}

type compositionRecord struct {
	ID             string          `json:"id"`
	CompanyID      string          `json:"company_id"`
	UserID         string          `json:"user_id"`
	DepartmentID   string          `json:"department_id"`
	GroupID        string          `json:"group_id"`
	Code           string          `json:"code"`
	SecondCode     string          `json:"second_code"`
	Description    string          `json:"description"`
	Type           string          `json:"type"`
	Unit           string          `json:"unit"`
	State          string          `json:"state"`
	IsSicro        bool            `json:"is_sicro"`
	Labor          bool            `json:"labor"`
	Rounding       int             `json:"rounding"`
	Note           string          `json:"note"`
	TeamProduction string          `json:"team_production"`
	FIC            string          `json:"fic"`
	LaborAddition  string          `json:"labor_addition"`
	LabourCharges  *string         `json:"labour_charges,omitempty"` // absent: the bank's prices
	Banks          []bankRefRecord `json:"banks"`
	Items          []itemRecord    `json:"items"`
	CreatedAt      string          `json:"created_at"`
	Tags           []string        `json:"tags,omitempty"` // absent: none
}

type editionRecord struct {
	Bank         string `json:"bank"`
	State        string `json:"state"`
	Month        string `json:"month"`
	Region       string `json:"region"`
	Regimes      []int  `json:"regimes"`
	Resources    int    `json:"resources"`
	Compositions int    `json:"compositions"`
	Structures   int    `json:"structures"`
	Source       string `json:"source"`
	ImportedAt   string `json:"imported_at"`
	// Files are domain.SourceFile, whose JSON names are the record's.
	Files []domain.SourceFile `json:"files,omitempty"`
}

type bankResourceRecord struct {
	Code        string          `json:"code"`
	Description string          `json:"description"`
	Unit        string          `json:"unit"`
	Type        int             `json:"type"`
	Prices      priceLineRecord `json:"prices"`
	// Regimes whose prices the record has; absent (records written before)
	// means every regime of the edition.
	Regimes []int `json:"regimes"`
	// Base is the price without charges (sem encargos); absent when the
	// bank published none.
	Base *string `json:"base,omitempty"`
}

type unitPriceRecord struct {
	PND string `json:"pnd"`
	PD  string `json:"pd"`
}

type structureItemRecord struct {
	Kind        string `json:"kind"`
	Code        string `json:"code"`
	Coefficient string `json:"coefficient"`
}

type bankCompositionRecord struct {
	Code        string          `json:"code"`
	Description string          `json:"description"`
	Unit        string          `json:"unit"`
	Class       string          `json:"class"`
	Cost        unitPriceRecord `json:"cost"`
	// Items is the structure inline, as schema version 2 stored it; from
	// version 3 the structure is in the structures bucket, shared by every
	// record with the same items, under the key Structure (see
	// structures.go). A record with neither has no structure (nil items).
	Items     []structureItemRecord `json:"items,omitempty"`
	Structure []byte                `json:"structure,omitempty"` // base64
	Regimes   []int                 `json:"regimes"`             // as bankResourceRecord's
}

// budgetNodeRecord is one node of a budget's tree. Fields that do not
// apply to the node's kind are left out (a budget of thousands of lines
// stays small).
type budgetNodeRecord struct {
	ID          string             `json:"id"`
	Kind        string             `json:"kind"`
	Description string             `json:"description,omitempty"`
	Bank        string             `json:"bank,omitempty"`
	Code        string             `json:"code,omitempty"`
	Quantity    string             `json:"quantity,omitempty"`
	Items       []budgetNodeRecord `json:"items,omitempty"`
}

type budgetRecord struct {
	ID           string             `json:"id"`
	CompanyID    string             `json:"company_id"`
	UserID       string             `json:"user_id"`
	DepartmentID string             `json:"department_id"`
	Code         string             `json:"code"`
	Description  string             `json:"description"`
	Client       string             `json:"client"`
	State        string             `json:"state"`
	Banks        []bankRefRecord    `json:"banks"`
	Desonerado   bool               `json:"desonerado"`
	BDI          string             `json:"bdi"`
	BDIMode      string             `json:"bdi_mode"`
	Rounding     string             `json:"rounding"`
	NodeSeq      int                `json:"node_seq"`
	Items        []budgetNodeRecord `json:"items"`
	CreatedAt    string             `json:"created_at"`
	UpdatedAt    string             `json:"updated_at"`
	// The BDI as TCU checks it (absent on budgets without it).
	WorkType       string          `json:"work_type,omitempty"`
	BDIParts       *bdiPartsRecord `json:"bdi_parts,omitempty"`
	SupplyBDI      string          `json:"supply_bdi,omitempty"`
	SupplyBDIParts *bdiPartsRecord `json:"supply_bdi_parts,omitempty"`
	SupplyNodes    []string        `json:"supply_nodes,omitempty"`
	Tags           []string        `json:"tags,omitempty"` // absent: none
	// The ART/RRT number and the issue date (absent: none).
	ART       string `json:"art,omitempty"`
	IssueDate string `json:"issue_date,omitempty"`
	// The budget's own labour charges percentage (absent: the bank's prices).
	LabourCharges *string `json:"labour_charges,omitempty"`
}

// bdiPartsRecord is domain.BDIParts, each part a decimal string.
type bdiPartsRecord struct {
	AC    string `json:"ac"`
	S     string `json:"s"`
	R     string `json:"r"`
	G     string `json:"g"`
	DF    string `json:"df"`
	L     string `json:"l"`
	Taxes string `json:"taxes"`
	CPRB  string `json:"cprb"`
}

func toBDIPartsRecord(p *domain.BDIParts) *bdiPartsRecord {
	if p == nil {
		return nil
	}
	return &bdiPartsRecord{AC: encDec(p.AC), S: encDec(p.S), R: encDec(p.R), G: encDec(p.G), DF: encDec(p.DF),
		L: encDec(p.L), Taxes: encDec(p.Taxes), CPRB: encDec(p.CPRB)}
}

func (r *bdiPartsRecord) domain(d *decoder) *domain.BDIParts {
	if r == nil {
		return nil
	}
	return &domain.BDIParts{AC: d.dec("bdi_parts/ac", r.AC), S: d.dec("bdi_parts/s", r.S), R: d.dec("bdi_parts/r", r.R),
		G: d.dec("bdi_parts/g", r.G), DF: d.dec("bdi_parts/df", r.DF), L: d.dec("bdi_parts/l", r.L),
		Taxes: d.dec("bdi_parts/taxes", r.Taxes), CPRB: d.dec("bdi_parts/cprb", r.CPRB)}
}

// budgetHeaderRecord decodes a budget record without its tree: the nodes
// are skipped, not decoded.
type budgetHeaderRecord struct {
	budgetRecord
	Items skipJSON `json:"items"`
}

// skipJSON decodes any JSON value into nothing.
type skipJSON struct{}

func (*skipJSON) UnmarshalJSON([]byte) error { return nil }

// Scalars.

// encDec writes a decimal exactly, keeping its scale: 1.50 is "1.50".
func encDec(d decimal.Decimal) string {
	if e := d.Exponent(); e < 0 {
		return d.StringFixed(-e)
	}
	return d.String()
}

// encTime writes a time as RFC 3339 in UTC with nanoseconds; "" for zero.
func encTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// decoder turns record fields back into domain values and remembers the
// first malformed one.
type decoder struct {
	err error
}

func (d *decoder) fail(field, s string, err error) {
	if d.err == nil {
		d.err = fmt.Errorf("field %s: bad value %q: %w", field, s, err)
	}
}

func (d *decoder) dec(field, s string) decimal.Decimal {
	if s == "" {
		return decimal.Decimal{}
	}
	v, err := decimal.NewFromString(s)
	if err != nil {
		d.fail(field, s, err)
	}
	return v
}

func (d *decoder) time(field, s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		d.fail(field, s, err)
	}
	return t.UTC()
}

// Conversions.

func toCompanyRecord(c *domain.Company) companyRecord {
	return companyRecord{ID: c.ID, Name: c.Name, CreatedAt: encTime(c.CreatedAt)}
}

func (r *companyRecord) domain(d *decoder) *domain.Company {
	return &domain.Company{ID: r.ID, Name: r.Name, CreatedAt: d.time("created_at", r.CreatedAt)}
}

func toDepartmentRecord(v *domain.Department) departmentRecord {
	return departmentRecord{ID: v.ID, CompanyID: v.CompanyID, Name: v.Name, CreatedAt: encTime(v.CreatedAt)}
}

func (r *departmentRecord) domain(d *decoder) *domain.Department {
	return &domain.Department{ID: r.ID, CompanyID: r.CompanyID, Name: r.Name, CreatedAt: d.time("created_at", r.CreatedAt)}
}

func toUserRecord(u *domain.User) userRecord {
	return userRecord{
		ID: u.ID, CompanyID: u.CompanyID, DepartmentID: u.DepartmentID, Email: u.Email, Name: u.Name,
		SecretHash: u.SecretHash, Disabled: u.Disabled, CreatedAt: encTime(u.CreatedAt),
		TokensRevokedAt: encTime(u.TokensRevokedAt),
	}
}

func (r *userRecord) domain(d *decoder) *domain.User {
	return &domain.User{
		ID: r.ID, CompanyID: r.CompanyID, DepartmentID: r.DepartmentID, Email: r.Email, Name: r.Name,
		SecretHash: r.SecretHash, Disabled: r.Disabled, CreatedAt: d.time("created_at", r.CreatedAt),
		TokensRevokedAt: d.time("tokens_revoked_at", r.TokensRevokedAt),
	}
}

func toGroupRecord(g *domain.Group) groupRecord {
	return groupRecord{
		ID: g.ID, CompanyID: g.CompanyID, UserID: g.UserID, DepartmentID: g.DepartmentID,
		Description: g.Description, CreatedAt: encTime(g.CreatedAt),
	}
}

func (r *groupRecord) domain(d *decoder) *domain.Group {
	return &domain.Group{
		ID: r.ID, CompanyID: r.CompanyID, UserID: r.UserID, DepartmentID: r.DepartmentID,
		Description: r.Description, CreatedAt: d.time("created_at", r.CreatedAt),
	}
}

func toPriceLineRecord(p domain.PriceLine) priceLineRecord {
	return priceLineRecord{PND: encDec(p.PND), PD: encDec(p.PD), PNDI: encDec(p.PNDI), PDI: encDec(p.PDI)}
}

func (r priceLineRecord) domain(d *decoder, prefix string) domain.PriceLine {
	return domain.PriceLine{
		PND:  d.dec(prefix+"pnd", r.PND),
		PD:   d.dec(prefix+"pd", r.PD),
		PNDI: d.dec(prefix+"pndi", r.PNDI),
		PDI:  d.dec(prefix+"pdi", r.PDI),
	}
}

func toResourceRecord(v *domain.Resource) resourceRecord {
	r := resourceRecord{
		ID: v.ID, CompanyID: v.CompanyID, UserID: v.UserID, DepartmentID: v.DepartmentID, GroupID: v.GroupID,
		Code: v.Code, SecondCode: v.SecondCode, Description: v.Description, Type: v.Type, Unit: v.Unit,
		IsSicro: v.IsSicro, Status: v.Status, Note: v.Note, CreatedAt: encTime(v.CreatedAt), Tags: v.Tags,
		Locals: make(map[string]priceLineRecord, len(v.Locals)),
	}
	for st, p := range v.Locals {
		r.Locals[st] = toPriceLineRecord(p)
	}
	return r
}

func (r *resourceRecord) domain(d *decoder) *domain.Resource {
	v := &domain.Resource{
		ID: r.ID, CompanyID: r.CompanyID, UserID: r.UserID, DepartmentID: r.DepartmentID, GroupID: r.GroupID,
		Code: r.Code, SecondCode: r.SecondCode, Description: r.Description, Type: r.Type, Unit: r.Unit,
		IsSicro: r.IsSicro, Status: r.Status, Note: r.Note, CreatedAt: d.time("created_at", r.CreatedAt), Tags: r.Tags,
		Locals: make(map[string]domain.PriceLine, len(r.Locals)),
	}
	for st, p := range r.Locals {
		v.Locals[st] = p.domain(d, "locals/"+st+"/")
	}
	return v
}

// toCompositionRecord is the stored record of c.
func toCompositionRecord(c *domain.Composition) compositionRecord {
	r := compositionRecord{
		ID: c.ID, CompanyID: c.CompanyID, UserID: c.UserID, DepartmentID: c.DepartmentID, GroupID: c.GroupID,
		Code: c.Code, SecondCode: c.SecondCode, Description: c.Description, Type: c.Type, Unit: c.Unit,
		State: c.State, IsSicro: c.IsSicro, Labor: c.Labor, Rounding: int(c.Rounding), Note: c.Note,
		TeamProduction: encDec(c.TeamProduction), FIC: encDec(c.FIC), LaborAddition: encDec(c.LaborAddition),
		LabourCharges: encOptDec(c.LabourCharges), CreatedAt: encTime(c.CreatedAt), Tags: c.Tags,
	}
	if c.Banks != nil {
		r.Banks = make([]bankRefRecord, len(c.Banks))
		for i, b := range c.Banks {
			r.Banks[i] = bankRefRecord{Name: b.Name, State: b.State, Month: b.Month, Region: b.Region, Report: b.Report, AskedRegion: b.AskedRegion, WithLaborCharges: b.WithLaborCharges}
		}
	}
	if c.Items != nil {
		r.Items = make([]itemRecord, len(c.Items))
		for i, it := range c.Items {
			ir := itemRecord{Bank: it.Bank, Code: it.Code, Kind: string(it.Kind), Quantity: encDec(it.Quantity)}
			if it.Utilization.Valid {
				u := encDec(it.Utilization.Decimal)
				ir.Utilization = &u
			}
			r.Items[i] = ir
		}
	}
	return r
}

// encodeCompositionRecord is the stored record of c, as JSON.
func encodeCompositionRecord(c *domain.Composition) ([]byte, error) {
	return json.Marshal(toCompositionRecord(c))
}

func (r *compositionRecord) domain(d *decoder) *domain.Composition {
	c := &domain.Composition{
		ID: r.ID, CompanyID: r.CompanyID, UserID: r.UserID, DepartmentID: r.DepartmentID, GroupID: r.GroupID,
		Code: r.Code, SecondCode: r.SecondCode, Description: r.Description, Type: r.Type, Unit: r.Unit,
		State: r.State, IsSicro: r.IsSicro, Labor: r.Labor, Rounding: domain.RoundingMethod(r.Rounding), Note: r.Note,
		TeamProduction: d.dec("team_production", r.TeamProduction),
		FIC:            d.dec("fic", r.FIC),
		LaborAddition:  d.dec("labor_addition", r.LaborAddition),
		LabourCharges:  d.optDec("labour_charges", r.LabourCharges),
		CreatedAt:      d.time("created_at", r.CreatedAt),
		Tags:           r.Tags,
	}
	if r.Banks != nil {
		c.Banks = make([]domain.BankRef, len(r.Banks))
		for i, b := range r.Banks {
			c.Banks[i] = domain.BankRef{Name: b.Name, State: b.State, Month: b.Month, Region: b.Region, Report: b.Report, AskedRegion: b.AskedRegion, WithLaborCharges: b.WithLaborCharges}
		}
	}
	if r.Items != nil {
		c.Items = make([]domain.Item, len(r.Items))
		for i, ir := range r.Items {
			it := domain.Item{Bank: ir.Bank, Code: ir.Code, Kind: domain.ItemKind(ir.Kind), Quantity: d.dec("items/quantity", ir.Quantity)}
			if ir.Utilization != nil {
				it.Utilization = decimal.NewNullDecimal(d.dec("items/utilization", *ir.Utilization))
			}
			c.Items[i] = it
		}
	}
	return c
}

func toEditionRecord(e *domain.Edition) editionRecord {
	r := editionRecord{
		Bank: e.Bank, State: e.State, Month: e.Month, Region: e.Region,
		Resources: e.Resources, Compositions: e.Compositions, Structures: e.Structures,
		Source: e.Source, ImportedAt: encTime(e.ImportedAt), Files: e.Files,
	}
	if e.Regimes != nil {
		r.Regimes = make([]int, len(e.Regimes))
		for i, g := range e.Regimes {
			r.Regimes[i] = int(g)
		}
	}
	return r
}

func (r *editionRecord) domain(d *decoder) *domain.Edition {
	e := &domain.Edition{
		Bank: r.Bank, State: r.State, Month: r.Month, Region: r.Region,
		Resources: r.Resources, Compositions: r.Compositions, Structures: r.Structures,
		Source: r.Source, ImportedAt: d.time("imported_at", r.ImportedAt), Files: r.Files,
	}
	if r.Regimes != nil {
		e.Regimes = make([]domain.Regime, len(r.Regimes))
		for i, g := range r.Regimes {
			e.Regimes[i] = domain.Regime(g)
		}
	}
	return e
}

func toBankResourceRecord(v *domain.BankResource) bankResourceRecord {
	return bankResourceRecord{Code: v.Code, Description: v.Description, Unit: v.Unit, Type: v.Type, Prices: toPriceLineRecord(v.Prices),
		Regimes: toRegimeRecords(v.Regimes), Base: encOptDec(v.Base)}
}

// encOptDec is the stored text of an optional decimal, nil when absent.
func encOptDec(d decimal.NullDecimal) *string {
	if !d.Valid {
		return nil
	}
	s := encDec(d.Decimal)
	return &s
}

// optDec is the optional decimal a record holds at name.
func (d *decoder) optDec(name string, s *string) decimal.NullDecimal {
	if s == nil {
		return decimal.NullDecimal{}
	}
	return decimal.NewNullDecimal(d.dec(name, *s))
}

func (r *bankResourceRecord) domain(d *decoder) *domain.BankResource {
	return &domain.BankResource{Code: r.Code, Description: r.Description, Unit: r.Unit, Type: r.Type, Prices: r.Prices.domain(d, "prices/"),
		Regimes: fromRegimeRecords(r.Regimes), Base: d.optDec("base", r.Base)}
}

// toRegimeRecords and fromRegimeRecords keep nil (every regime) apart from
// empty (none).
func toRegimeRecords(rs []domain.Regime) []int {
	if rs == nil {
		return nil
	}
	out := make([]int, len(rs))
	for i, g := range rs {
		out[i] = int(g)
	}
	return out
}

func fromRegimeRecords(rs []int) []domain.Regime {
	if rs == nil {
		return nil
	}
	out := make([]domain.Regime, len(rs))
	for i, g := range rs {
		out[i] = domain.Regime(g)
	}
	return out
}

// toBankCompositionRecord converts c without its structure, which the
// caller stores apart (putStructure) and links through the Structure field.
func toBankCompositionRecord(c *domain.BankComposition) bankCompositionRecord {
	return bankCompositionRecord{
		Code: c.Code, Description: c.Description, Unit: c.Unit, Class: c.Class,
		Cost:    unitPriceRecord{PND: encDec(c.Cost.PND), PD: encDec(c.Cost.PD)},
		Regimes: toRegimeRecords(c.Regimes),
	}
}

func toStructureItemRecords(items []domain.StructureItem) []structureItemRecord {
	if items == nil {
		return nil
	}
	out := make([]structureItemRecord, len(items))
	for i, it := range items {
		out[i] = structureItemRecord{Kind: string(it.Kind), Code: it.Code, Coefficient: encDec(it.Coefficient)}
	}
	return out
}

// domain converts r with the structure items, which are r.Items for a
// record of schema version 2 and the shared structure otherwise.
func (r *bankCompositionRecord) domain(d *decoder, items []structureItemRecord) *domain.BankComposition {
	c := &domain.BankComposition{
		Code: r.Code, Description: r.Description, Unit: r.Unit, Class: r.Class,
		Cost:    domain.UnitPrice{PND: d.dec("cost/pnd", r.Cost.PND), PD: d.dec("cost/pd", r.Cost.PD)},
		Regimes: fromRegimeRecords(r.Regimes),
	}
	if items != nil {
		c.Items = make([]domain.StructureItem, len(items))
		for i, it := range items {
			c.Items[i] = domain.StructureItem{Kind: domain.ItemKind(it.Kind), Code: it.Code, Coefficient: d.dec("items/coefficient", it.Coefficient)}
		}
	}
	return c
}

func toBudgetNodeRecords(ns []domain.BudgetNode) []budgetNodeRecord {
	if ns == nil {
		return nil
	}
	out := make([]budgetNodeRecord, len(ns))
	for i, n := range ns {
		r := budgetNodeRecord{ID: n.ID, Kind: string(n.Kind), Description: n.Description, Bank: n.Bank, Code: n.Code,
			Items: toBudgetNodeRecords(n.Items)}
		if !n.Quantity.IsZero() {
			r.Quantity = encDec(n.Quantity)
		}
		out[i] = r
	}
	return out
}

func budgetNodes(d *decoder, rs []budgetNodeRecord) []domain.BudgetNode {
	if rs == nil {
		return nil
	}
	out := make([]domain.BudgetNode, len(rs))
	for i, r := range rs {
		out[i] = domain.BudgetNode{
			ID: r.ID, Kind: domain.NodeKind(r.Kind), Description: r.Description, Bank: r.Bank, Code: r.Code,
			Quantity: d.dec("items/quantity", r.Quantity), Items: budgetNodes(d, r.Items),
		}
	}
	return out
}

func toBudgetRecord(b *domain.Budget) budgetRecord {
	r := budgetRecord{
		ID: b.ID, CompanyID: b.CompanyID, UserID: b.UserID, DepartmentID: b.DepartmentID,
		Code: b.Code, Description: b.Description, Client: b.Client, State: b.State,
		Desonerado: b.Desonerado, BDI: encDec(b.BDI), BDIMode: string(b.BDIMode), Rounding: string(b.Rounding),
		NodeSeq: b.NodeSeq, Items: toBudgetNodeRecords(b.Items),
		CreatedAt: encTime(b.CreatedAt), UpdatedAt: encTime(b.UpdatedAt),
		WorkType: b.WorkType, BDIParts: toBDIPartsRecord(b.BDIParts), SupplyBDIParts: toBDIPartsRecord(b.SupplyBDIParts),
		SupplyNodes: b.SupplyNodes, Tags: b.Tags, ART: b.ART, IssueDate: b.IssueDate,
		LabourCharges: encOptDec(b.LabourCharges),
	}
	if !b.SupplyBDI.IsZero() {
		r.SupplyBDI = encDec(b.SupplyBDI)
	}
	if b.Banks != nil {
		r.Banks = make([]bankRefRecord, len(b.Banks))
		for i, x := range b.Banks {
			r.Banks[i] = bankRefRecord{Name: x.Name, State: x.State, Month: x.Month, Region: x.Region, Report: x.Report}
		}
	}
	return r
}

func (r *budgetRecord) domain(d *decoder) *domain.Budget {
	b := &domain.Budget{
		ID: r.ID, CompanyID: r.CompanyID, UserID: r.UserID, DepartmentID: r.DepartmentID,
		Code: r.Code, Description: r.Description, Client: r.Client, State: r.State,
		Desonerado: r.Desonerado, BDI: d.dec("bdi", r.BDI), BDIMode: domain.BDIMode(r.BDIMode),
		Rounding: domain.BudgetRounding(r.Rounding), NodeSeq: r.NodeSeq, Items: budgetNodes(d, r.Items),
		CreatedAt: d.time("created_at", r.CreatedAt), UpdatedAt: d.time("updated_at", r.UpdatedAt),
		WorkType: r.WorkType, BDIParts: r.BDIParts.domain(d), SupplyBDI: d.dec("supply_bdi", r.SupplyBDI),
		SupplyBDIParts: r.SupplyBDIParts.domain(d), SupplyNodes: r.SupplyNodes, Tags: r.Tags,
		ART: r.ART, IssueDate: r.IssueDate, LabourCharges: d.optDec("labour_charges", r.LabourCharges),
	}
	if r.Banks != nil {
		b.Banks = make([]domain.BankRef, len(r.Banks))
		for i, x := range r.Banks {
			b.Banks[i] = domain.BankRef{Name: x.Name, State: x.State, Month: x.Month, Region: x.Region, Report: x.Report}
		}
	}
	return b
}

func (r *budgetHeaderRecord) domain(d *decoder) *domain.BudgetHeader {
	return r.budgetRecord.domain(d).Header()
}
