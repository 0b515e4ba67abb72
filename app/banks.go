package app

import (
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The bank catalogue: the imported editions of the reference banks and
// their items, which a client browses before it adds items to a composition
// or a budget. Reference banks are public data shared by every company, so
// these use cases take no principal: any authenticated caller reads them.

// EditionID returns the public, URL-safe id of an edition:
// "<BANK>-<UF>-<YYYY>-<MM>" ("SINAPI-MG-2026-08", "SICRO3-AL-2024-01"). An
// edition with a region adds "~" and the region, upper case, in unpadded
// base64url ("SICRO3-AL-2024-01~Tk9SVEU" for region NORTE), since a region
// is free text. Editions sort by id as by key within one bank and state.
func EditionID(ref domain.BankRef) string {
	month := ref.Month
	if domain.ValidMonth(month) {
		month = month[3:] + "-" + month[:2]
	}
	id := domain.NormalizeBank(ref.Name) + "-" + ref.State + "-" + month
	if r := strings.ToUpper(strings.TrimSpace(ref.Region)); r != "" {
		id += "~" + base64.RawURLEncoding.EncodeToString([]byte(r))
	}
	return id
}

// editionIDTail is the length of "-UF-YYYY-MM", the end of an id before
// its region.
const editionIDTail = len("-MG-2026-08")

// ParseEditionID reads an id made by EditionID. Bank and state may be in
// any case. The bank is everything before the last "-UF-YYYY-MM", so a bank
// name may itself hold hyphens.
func ParseEditionID(id string) (domain.BankRef, bool) {
	head, region64, hasRegion := strings.Cut(id, "~")
	var ref domain.BankRef
	if hasRegion {
		r, err := base64.RawURLEncoding.DecodeString(region64)
		if err != nil || strings.TrimSpace(string(r)) == "" {
			return ref, false
		}
		ref.Region = strings.ToUpper(string(r))
	}
	if len(head) <= editionIDTail {
		return ref, false
	}
	bank, tail := head[:len(head)-editionIDTail], head[len(head)-editionIDTail:]
	if tail[0] != '-' || tail[3] != '-' || tail[8] != '-' {
		return ref, false
	}
	ref.Name = domain.NormalizeBank(bank)
	ref.State = strings.ToUpper(tail[1:3])
	ref.Month = tail[9:11] + "/" + tail[4:8]
	if ref.Name == "" || !domain.ValidState(ref.State) || !domain.ValidMonth(ref.Month) {
		return domain.BankRef{}, false
	}
	return ref, true
}

// editionList is what the list of editions is filtered and sorted by.
var editionList = listSpec[*domain.Edition]{
	filters: []filterSpec[*domain.Edition]{
		{names: []string{"name", "bank"}, parse: equalFold(edBank, nil)},
		{names: []string{"location", "state"}, parse: equalFold(edState, stateCode)},
		{names: []string{"version", "month"}, parse: sameMonth},
		{names: []string{"region"}, parse: equalFold(func(e *domain.Edition) string { return e.Region }, nil)},
		{names: []string{"regime"}, parse: hasRegime},
	},
	sorts: []sortSpec[*domain.Edition]{
		{names: []string{"name", "bank"}, cmp: byText(edBank)},
		{names: []string{"location", "state"}, cmp: byText(edState)},
		{names: []string{"version", "month"}, cmp: func(a, b *domain.Edition) int { return strings.Compare(yearMonth(a.Month), yearMonth(b.Month)) }},
		{names: []string{"region"}, cmp: byText(func(e *domain.Edition) string { return e.Region })},
		{names: []string{"imported_at"}, cmp: byTime(func(e *domain.Edition) time.Time { return e.ImportedAt })},
	},
	id: func(e *domain.Edition) string { return e.Key() },
}

func edBank(e *domain.Edition) string  { return e.Bank }
func edState(e *domain.Edition) string { return e.State }

// yearMonth turns MM/YYYY into YYYY-MM, which sorts chronologically.
func yearMonth(m string) string {
	if !domain.ValidMonth(m) {
		return m
	}
	return m[3:] + "-" + m[:2]
}

func sameMonth(v string, _ *time.Location) (func(*domain.Edition) bool, string) {
	if !domain.ValidMonth(v) {
		return nil, "must be a month as MM/YYYY"
	}
	return func(e *domain.Edition) bool { return e.Month == v }, ""
}

// hasRegime matches an edition with the prices of the regime imported.
func hasRegime(v string, _ *time.Location) (func(*domain.Edition) bool, string) {
	r, ok := parseRegime(v)
	if !ok {
		return nil, "must be desonerado or nao-desonerado"
	}
	return func(e *domain.Edition) bool { return e.HasRegime(r) }, ""
}

// parseRegime reads a regime as the API spells it, ignoring case and
// accents ("não-desonerado" is nao-desonerado).
func parseRegime(v string) (domain.Regime, bool) {
	switch fold(strings.TrimSpace(v)) {
	case "desonerado":
		return domain.Desonerado, true
	case "nao-desonerado":
		return domain.NaoDesonerado, true
	}
	return 0, false
}

// Editions lists the imported bank editions that match q, in q's order (by
// key — bank, state, month, region — by default), with the number that
// match. Filters: name (alias bank), location (alias state), version (alias
// month, MM/YYYY), region (all exact, ignoring case) and regime (desonerado
// or nao-desonerado: editions with that regime's prices); sort fields: name
// (bank), location (state), version (month, chronologically), region,
// imported_at. Returns EBADREQUEST for a bad query (see ListQuery).
func (s *Service) Editions(ctx context.Context, q ListQuery) ([]*domain.Edition, int, error) {
	sel, err := compile(editionList, q)
	if err != nil {
		return nil, 0, err
	}
	var out []*domain.Edition
	var total int
	err = s.store.View(ctx, func(tx Tx) error {
		all, err := tx.Editions()
		if err != nil {
			return err
		}
		out, total = sel.apply(all)
		return nil
	})
	return out, total, err
}

// EditionByID returns the edition with the id (see EditionID). An id that
// is not one, or names an edition that was never imported, is ENOTFOUND.
func (s *Service) EditionByID(ctx context.Context, id string) (*domain.Edition, error) {
	var out *domain.Edition
	err := s.store.View(ctx, func(tx Tx) error {
		ref, ok := ParseEditionID(id)
		if !ok {
			return domain.Errorf(domain.ENOTFOUND, "no bank edition has the id %q (ids look like SINAPI-MG-2026-08)", id)
		}
		var err error
		out, err = edition(tx, ref)
		return err
	})
	return out, err
}

// edition returns the imported edition ref names, or ENOTFOUND.
func edition(tx Tx, ref domain.BankRef) (*domain.Edition, error) {
	ed, err := tx.Edition(ref.EditionKey())
	if isNotFound(err) {
		return nil, domain.Errorf(domain.ENOTFOUND, "edition %s has not been imported", editionName(ref))
	}
	return ed, err
}

// BankItem is a resource or a composition as an edition publishes it.
type BankItem struct {
	Edition     domain.BankRef
	Kind        domain.ItemKind
	Code        string
	Description string
	Unit        string
	// ResourceType is a resource's type (0 for a composition).
	ResourceType int
	// Class is a composition's class (SINAPI; "" for none).
	Class string
	// Prices are a resource's four prices (for equipment PND/PD are the
	// productive hourly cost, PNDI/PDI the idle one), or a composition's
	// published unit cost in PND and PD.
	Prices domain.PriceLine
	// Unpriced says which regimes (indexed by domain.Regime) the edition
	// published no price of for this item: those prices read 0 and the API
	// shows them as null.
	Unpriced [2]bool
	// StructureItems counts the items of a composition's published
	// structure (0 when it was not imported).
	StructureItems int
	// Structure is a composition's published structure, each item looked
	// up in the same edition. Only BankItem fills it; lists leave it nil.
	Structure []StructureLine
}

// TypeText is the item's type as v1 items write it: the resource type as
// text, or the composition class.
func (b *BankItem) TypeText() string {
	if b.Kind == domain.KindResource {
		return strconv.Itoa(b.ResourceType)
	}
	return b.Class
}

// StructureLine is one item of a published composition structure, with what
// the edition says of it.
type StructureLine struct {
	Kind         domain.ItemKind
	Code         string
	Description  string
	Unit         string
	ResourceType int
	Class        string
	Coefficient  decimal.Decimal
	// UnitPrice is the item's unit price in the edition (a resource's
	// productive price, a composition's published cost).
	UnitPrice domain.UnitPrice
	// Missing says the edition has no such item: UnitPrice is zero and the
	// API shows it as null.
	Missing bool
	// Unpriced says which regimes the item has no price in (both when
	// Missing).
	Unpriced [2]bool
}

// TypeText is the line's type as v1 items write it.
func (l *StructureLine) TypeText() string {
	if l.Kind == domain.KindResource {
		if l.ResourceType == 0 {
			return ""
		}
		return strconv.Itoa(l.ResourceType)
	}
	return l.Class
}

func resourceItem(ref domain.BankRef, r *domain.BankResource) *BankItem {
	return &BankItem{
		Edition: ref, Kind: domain.KindResource, Code: r.Code, Description: r.Description, Unit: r.Unit,
		ResourceType: r.Type, Prices: r.Prices, Unpriced: unpriced(r.Priced),
	}
}

func compositionItem(ref domain.BankRef, c *domain.BankComposition) *BankItem {
	return &BankItem{
		Edition: ref, Kind: domain.KindComposition, Code: c.Code, Description: c.Description, Unit: c.Unit,
		Class: c.Class, Prices: domain.PriceLine{PND: c.Cost.PND, PD: c.Cost.PD}, StructureItems: len(c.Items),
		Unpriced: unpriced(c.Priced),
	}
}

// unpriced says which regimes a record has no price in.
func unpriced(priced func(domain.Regime) bool) [2]bool {
	return [2]bool{!priced(domain.NaoDesonerado), !priced(domain.Desonerado)}
}

// cleanRef trims a reference as a client sends it and upper-cases its bank,
// state and region.
func cleanRef(ref domain.BankRef) domain.BankRef {
	return domain.BankRef{
		Name:   domain.NormalizeBank(ref.Name),
		State:  strings.ToUpper(strings.TrimSpace(ref.State)),
		Month:  strings.TrimSpace(ref.Month),
		Region: strings.TrimSpace(ref.Region),
	}
}

// BankItem returns the item with the code in the edition ref names: the
// composition or the resource (kind ""; where the code is both, the
// composition, as v1 items resolve a code), or the one of the kind asked
// for. A composition comes with its published structure, when it was
// imported, each item looked up in the same edition. Returns EINVALID for a
// bad reference (/name, /location, /version, /region), a missing code
// (/code) or an unknown kind (/kind); ENOTFOUND when the edition was not
// imported or has no such item.
func (s *Service) BankItem(ctx context.Context, ref domain.BankRef, code string, kind domain.ItemKind) (*BankItem, error) {
	var out *BankItem
	err := s.store.View(ctx, func(tx Tx) error {
		ref = cleanRef(ref)
		code = strings.TrimSpace(code)
		var v domain.Validation
		_ = v.Merge("", ref.Validate(""))
		if code == "" {
			v.Add("/code", "is required")
		}
		if kind != "" && kind != domain.KindResource && kind != domain.KindComposition {
			v.Add("/kind", "must be resource or composition")
		}
		if err := v.Err(); err != nil {
			return err
		}
		ed, err := edition(tx, ref)
		if err != nil {
			return err
		}
		out, err = bankItemIn(tx, ed, code, kind, true)
		return err
	})
	return out, err
}

// bankItemIn is the item with the code in the edition, as BankItem gives
// it: its published structure only when withStructure. ENOTFOUND when the
// edition has no such item.
func bankItemIn(tx Tx, ed *domain.Edition, code string, kind domain.ItemKind, withStructure bool) (*BankItem, error) {
	ref, key := ed.Ref(), ed.Key()
	if kind != domain.KindResource {
		c, err := tx.BankComposition(key, code)
		switch {
		case err == nil:
			out := compositionItem(ref, c)
			if withStructure {
				out.Structure, err = structure(tx, key, c.Items)
			}
			return out, err
		case !isNotFound(err):
			return nil, err
		}
	}
	if kind != domain.KindComposition {
		r, err := tx.BankResource(key, code)
		switch {
		case err == nil:
			return resourceItem(ref, r), nil
		case !isNotFound(err):
			return nil, err
		}
	}
	what := "no resource or composition"
	if kind != "" {
		what = "no " + string(kind)
	}
	return nil, domain.Errorf(domain.ENOTFOUND, "%s %s exists in %s", what, code, editionName(ref))
}

// structure looks every item of a published structure up in the edition.
func structure(tx Tx, key string, items []domain.StructureItem) ([]StructureLine, error) {
	out := make([]StructureLine, 0, len(items))
	for _, si := range items {
		l := StructureLine{Kind: si.Kind, Code: si.Code, Coefficient: si.Coefficient}
		var err error
		if si.Kind == domain.KindComposition {
			var c *domain.BankComposition
			if c, err = tx.BankComposition(key, si.Code); err == nil {
				l.Description, l.Unit, l.Class, l.UnitPrice = c.Description, c.Unit, c.Class, c.Cost
				l.Unpriced = unpriced(c.Priced)
			}
		} else {
			var r *domain.BankResource
			if r, err = tx.BankResource(key, si.Code); err == nil {
				l.Description, l.Unit, l.ResourceType = r.Description, r.Unit, r.Type
				l.UnitPrice = domain.UnitPrice{PND: r.Prices.PND, PD: r.Prices.PD}
				l.Unpriced = unpriced(r.Priced)
			}
		}
		switch {
		case isNotFound(err):
			l.Missing, l.Unpriced = true, [2]bool{true, true}
		case err != nil:
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// bankItemList is what the items of an edition are filtered and sorted by.
var bankItemList = listSpec[*BankItem]{
	filters: []filterSpec[*BankItem]{
		{names: []string{"code"}, parse: contains(itemCode)},
		{names: []string{"description"}, parse: contains(itemDescription)},
		{names: []string{"search"}, parse: contains(itemCode, itemDescription)},
		{names: []string{"kind"}, parse: itemKind},
		{names: []string{"unit"}, parse: equalFold(func(b *BankItem) string { return b.Unit }, nil)},
	},
	sorts: []sortSpec[*BankItem]{
		{names: []string{"code"}, cmp: byCode(itemCode)},
		{names: []string{"description"}, cmp: byText(itemDescription)},
		{names: []string{"kind"}, cmp: byText(func(b *BankItem) string { return string(b.Kind) })},
		{names: []string{"unit"}, cmp: byText(func(b *BankItem) string { return b.Unit })},
	},
	id: func(b *BankItem) string { return string(b.Kind) + "\x00" + b.Code },
}

func itemCode(b *BankItem) string        { return b.Code }
func itemDescription(b *BankItem) string { return b.Description }

func itemKind(v string, _ *time.Location) (func(*BankItem) bool, string) {
	k := domain.ItemKind(strings.ToLower(v))
	if k != domain.KindResource && k != domain.KindComposition {
		return nil, "must be resource or composition"
	}
	return func(b *BankItem) bool { return b.Kind == k }, ""
}

// BankItems lists the items of the edition ref names that match q, without
// their structure (counted in StructureItems), with the number that match.
// Without a sort they are in code order (codes compared naturally, so 9
// before 10), a composition before a resource of the same code. Filters:
// code, description, search (code or description; all three contain the
// value, ignoring case and accents), kind (resource or composition), unit
// (exact, ignoring case); sort fields: code, description, kind, unit.
// Returns EBADREQUEST for a bad query (see ListQuery), EINVALID for a bad
// reference and ENOTFOUND when the edition was not imported.
func (s *Service) BankItems(ctx context.Context, ref domain.BankRef, q ListQuery) ([]*BankItem, int, error) {
	sel, err := compile(bankItemList, q)
	if err != nil {
		return nil, 0, err
	}
	var out []*BankItem
	var total int
	err = s.store.View(ctx, func(tx Tx) error {
		ref = cleanRef(ref)
		if err := ref.Validate(""); err != nil {
			return err
		}
		ed, err := edition(tx, ref)
		if err != nil {
			return err
		}
		all, err := editionItems(tx, ed)
		if err != nil {
			return err
		}
		out, total = sel.apply(all)
		return nil
	})
	return out, total, err
}

// editionItems are the items of an edition, compositions and resources
// without their structure, in BankItems' default order.
func editionItems(tx Tx, ed *domain.Edition) ([]*BankItem, error) {
	ref, key := ed.Ref(), ed.Key()
	cs, err := tx.BankCompositions(key)
	if err != nil {
		return nil, err
	}
	rs, err := tx.BankResources(key)
	if err != nil {
		return nil, err
	}
	// The default order (byCode's, then the kind), with each code
	// folded once rather than at every comparison.
	type keyed struct {
		folded string
		item   *BankItem
	}
	ks := make([]keyed, 0, len(cs)+len(rs))
	for _, c := range cs {
		ks = append(ks, keyed{fold(c.Code), compositionItem(ref, c)})
	}
	for _, r := range rs {
		ks = append(ks, keyed{fold(r.Code), resourceItem(ref, r)})
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		if c := naturalCompare(a.folded, b.folded); c != 0 {
			return c
		}
		if c := strings.Compare(a.item.Code, b.item.Code); c != 0 {
			return c
		}
		return strings.Compare(string(a.item.Kind), string(b.item.Kind))
	})
	all := make([]*BankItem, len(ks))
	for i, k := range ks {
		all[i] = k.item
	}
	return all, nil
}
