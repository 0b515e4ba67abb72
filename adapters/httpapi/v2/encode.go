package v2

import (
	"net/http"
	"net/url"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
	"github.com/shopspring/decimal"
)

// The records read most (a composition with its items, a resource, and
// their lists) are written without reflection (docs/decisions.md, "The
// hottest answers are written from tables of members"): each is a docObject whose
// attributes are a table (httpapi.SortedObject, one line an attribute, in
// any order: they are written sorted by name; the members v1 shows alike
// are httpapi's), appending its JSON:API resource object to an
// httpapi.Encoder, byte for byte what
// google/jsonapi's node tree encoded by encoding/json was (encode_test.go
// compares both), its figures checked against the bounds as they are
// written. Every other document still goes through google/jsonapi
// (writeCompound).

// docObject is a record written by an Encoder.
type docObject interface {
	// self is the record's type and id.
	self() relTarget
	// related is the record the to-one relationship name names, if any.
	related(name string) (relTarget, bool)
	// appendObject appends the resource object; base is apiBase; only
	// the fields of set when it is not nil (a sparse fieldset).
	appendObject(e *httpapi.Encoder, base string, set fieldSet)
}

// relTarget is the record a relationship names.
type relTarget struct{ typ, id string }

// writeObjects writes a success document of objs (one resource object, or
// an array of them when many) as writeCompound writes the same records.
func writeObjects[T docObject](h *handlers, w http.ResponseWriter, r *http.Request, st int, objs []T, many bool,
	links *jsonapi.Links, meta *jsonapi.Meta, inc []string) {
	included, err := h.includedRecords(r, len(objs),
		func(i int) relTarget { return objs[i].self() },
		func(i int, name string) (relTarget, bool) { return objs[i].related(name) }, inc)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	base := apiBase(r)
	linkRelationships(base, included)
	sets := fieldsOf(r)
	sparseNodes(sets, included...)
	e := httpapi.NewEncoder()
	defer e.Free()
	e.Raw(`{"data":`)
	if many {
		e.Byte('[')
	}
	for i, o := range objs {
		if i > 0 {
			e.Byte(',')
		}
		o.appendObject(e, base, sets.of(o.self().typ))
	}
	if many {
		e.Byte(']')
	}
	if len(included) > 0 {
		e.Raw(`,"included":[`)
		for i, n := range included {
			if i > 0 {
				e.Byte(',')
			}
			if err := e.Value(n); err != nil {
				h.writeError(w, r, err)
				return
			}
		}
		e.Byte(']')
	}
	if links != nil {
		e.Raw(`,"links":`)
		if err := appendMap(e, *links); err != nil {
			h.writeError(w, r, err)
			return
		}
	}
	if meta != nil {
		e.Raw(`,"meta":`)
		if err := appendMap(e, *meta); err != nil {
			h.writeError(w, r, err)
			return
		}
	}
	e.Raw("}\n")
	writeChecked(w, st, e.Bytes(), e.Problem())
}

// appendMap appends a links or meta object as encoding/json writes a map:
// members sorted by name.
func appendMap[M ~map[string]any](e *httpapi.Encoder, m M) (err error) {
	if m == nil {
		e.Null()
		return nil
	}
	httpapi.Map(e, map[string]any(m), func(e *httpapi.Encoder, v any) {
		switch v := v.(type) {
		case string:
			e.String(v)
		case int:
			e.Int(v)
		default:
			if x := e.Value(v); err == nil {
				err = x
			}
		}
	})
	return err
}

// appendRelationship appends a to-one relationship member (after others
// when comma) naming t, with its links.related as linkRelationships gives
// it.
func appendRelationship(e *httpapi.Encoder, base, name string, t relTarget, comma bool) {
	if comma {
		e.Byte(',')
	}
	e.String(name)
	e.Raw(`:{"data":{"type":`)
	e.String(t.typ)
	if t.id != "" {
		e.Raw(`,"id":`)
		e.String(t.id)
	}
	e.Raw(`},"links":{"related":`)
	e.Strings(base, relatedPaths[t.typ], url.PathEscape(t.id))
	e.Raw(`}}`)
}

// ownerRelated is the relationship name of a record with a user, a sector
// and maybe a group (groupedRels).
func ownerRelated(name, userID, sectorID, groupID string) (relTarget, bool) {
	switch name {
	case "user":
		return relTarget{"users", userID}, true
	case "sector":
		return relTarget{"sectors", sectorID}, true
	case "group":
		return relTarget{"groups", groupID}, groupID != ""
	}
	return relTarget{}, false
}

// appendOwnerRelationships appends `relationships` of a record with a
// user, a sector and maybe a group, in encoding/json's order of names.
// Only those set names when it is not nil; none at all: no relationships.
func appendOwnerRelationships(e *httpapi.Encoder, base, userID, sectorID, groupID string, set fieldSet) {
	rels := [...]struct {
		name string
		to   relTarget
	}{{"group", relTarget{"groups", groupID}}, {"sector", relTarget{"sectors", sectorID}}, {"user", relTarget{"users", userID}}}
	n := 0
	for _, rel := range rels {
		if rel.name == "group" && groupID == "" || set != nil && !set[rel.name] {
			continue
		}
		if n == 0 {
			e.Raw(`,"relationships":{`)
		}
		appendRelationship(e, base, rel.name, rel.to, n > 0)
		n++
	}
	if n > 0 {
		e.Byte('}')
	}
}

// appendObjectStart appends the start of a resource object up to its
// attributes' opening brace.
func appendObjectStart(e *httpapi.Encoder, t relTarget) {
	e.Raw(`{"type":`)
	e.String(t.typ)
	if t.id != "" {
		e.Raw(`,"id":`)
		e.String(t.id)
	}
	e.Raw(`,"attributes":{`)
}

// compositionDoc is a composition as v2 writes it (JSON:API type
// "compositions"). The attributes are the seed's, `type` (the class code)
// included, which real clients read by that name although JSON:API reserves
// it; the same value is also written as composition_type, for JSON:API
// client libraries that merge attributes with the resource's own type. Then
// labor, calculation_method and note, which a client sets and must be able
// to read back; prices (the 18 keys of the seed, every one always there, 0
// where the composition's model does not fill it: the SINAPI model fills
// only pnd and pd); banks, keyed by bank name (regiao only for an edition
// with a region, or the region a client sent for a bank without regions);
// items, keyed by itemID: the fields of a v1 composition item, its 1-based
// position in the composition and, for an item added with one (SICRO
// equipment), its utilization. A list leaves `items` empty and counts them
// in omitted_items. incomplete and missing appear only when some item has
// no price. The relationship `group` is there only when the composition
// belongs to a group.
type compositionDoc struct {
	env       *httpapi.Env
	pc        *domain.PricedComposition
	withItems bool
}

// compositionDoc maps a priced composition. withItems false (lists) leaves
// `items` empty and counts the items in omitted_items.
func (h *handlers) compositionDoc(pc *domain.PricedComposition, withItems bool) *compositionDoc {
	return &compositionDoc{env: h.env, pc: pc, withItems: withItems}
}

func (d *compositionDoc) self() relTarget { return relTarget{"compositions", d.pc.ID} }

func (d *compositionDoc) related(name string) (relTarget, bool) {
	c := d.pc.Composition
	return ownerRelated(name, c.UserID, c.DepartmentID, c.GroupID)
}

func (d *compositionDoc) appendObject(e *httpapi.Encoder, base string, set fieldSet) {
	appendObjectStart(e, d.self())
	compositionAttributes.AppendSelected(e, d, false, set.keepFunc())
	e.Byte('}')
	c := d.pc.Composition
	appendOwnerRelationships(e, base, c.UserID, c.DepartmentID, c.GroupID, set)
	e.Byte('}')
}

// compositionAttributes is compositionDoc's attributes, one a line, in
// any order: they are written sorted by name.
var compositionAttributes = httpapi.SortedObject(
	httpapi.Field("banks", func(e *httpapi.Encoder, d *compositionDoc) {
		banks := d.pc.Banks
		e.Keyed(len(banks), func(i int, dst []byte) []byte { return append(dst, banks[i].Name...) },
			func(e *httpapi.Encoder, i int) { bankObject.Append(e, &banks[i]) })
	}),
	httpapi.Field("calculation_method", func(e *httpapi.Encoder, d *compositionDoc) { httpapi.CalculationMethod.Append(e, d.pc.Rounding) }),
	httpapi.Str("code", func(d *compositionDoc) string { return d.pc.Code }),
	httpapi.Str("composition_type", func(d *compositionDoc) string { return d.pc.Type }),
	httpapi.Field("created_at", func(e *httpapi.Encoder, d *compositionDoc) { e.Time(d.env, d.pc.CreatedAt) }),
	httpapi.Str("description", func(d *compositionDoc) string { return d.pc.Description }),
	httpapi.Dec("fic", func(d *compositionDoc) decimal.Decimal { return d.pc.FIC }),
	httpapi.Boolean("incomplete", func(*compositionDoc) bool { return true }).OmitIf(func(d *compositionDoc) bool { return !d.pc.Incomplete() }),
	httpapi.Boolean("is_sicro", func(d *compositionDoc) bool { return d.pc.IsSicro }),
	httpapi.Field("items", appendItems),
	httpapi.Boolean("labor", func(d *compositionDoc) bool { return d.pc.Labor }),
	httpapi.Dec("labor_addition", func(d *compositionDoc) decimal.Decimal { return d.pc.LaborAddition }),
	httpapi.DecOrNull("labour_charges", func(d *compositionDoc) (decimal.Decimal, bool) { return d.pc.LabourCharges.Decimal, false }).
		OmitIf(func(d *compositionDoc) bool { return !d.pc.LabourCharges.Valid }),
	httpapi.Str("location", func(d *compositionDoc) string { return d.pc.State }),
	httpapi.Field("missing", func(e *httpapi.Encoder, d *compositionDoc) { e.MissingPrices(d.pc.Missing) }).
		OmitIf(func(d *compositionDoc) bool { return len(d.pc.Missing) == 0 }),
	httpapi.Str("note", func(d *compositionDoc) string { return d.pc.Note }),
	httpapi.Whole("omitted_items", omittedItems),
	httpapi.Field("prices", func(e *httpapi.Encoder, d *compositionDoc) { httpapi.CompositionPrices.Append(e, &d.pc.Prices) }),
	httpapi.Str("secondary_code", func(d *compositionDoc) string { return d.pc.SecondCode }),
	httpapi.Dec("team_production", func(d *compositionDoc) decimal.Decimal { return d.pc.TeamProduction }),
	httpapi.TagList(func(d *compositionDoc) []string { return d.pc.Tags }),
	httpapi.Str("type", func(d *compositionDoc) string { return d.pc.Type }),
	httpapi.Str("unit", func(d *compositionDoc) string { return d.pc.Unit }),
)

// omittedItems is the number of items a list leaves out of `items`.
func omittedItems(d *compositionDoc) int {
	if d.withItems {
		return 0
	}
	return len(d.pc.Items)
}

// bankObject is an entry of a composition's `banks`, keyed by bank name.
var bankObject = httpapi.NewObject(
	httpapi.Str("estado", func(b *domain.BankRef) string { return b.State }),
	httpapi.Str("data", func(b *domain.BankRef) string { return b.Month }),
	httpapi.Str("regiao", regiao).OmitIf(func(b *domain.BankRef) bool { return regiao(b) == "" }),
	httpapi.Boolean("relatorio", func(b *domain.BankRef) bool { return b.Report }),
)

// regiao is the edition's region, or the region a client sent for a bank
// without regions.
func regiao(b *domain.BankRef) string { return httpapi.OrElse(b.Region, b.AskedRegion) }

// itemObject is an entry of a composition's `items`: the members of both
// generations, the item's position, its utilization when it was added
// with one, and missing true for an item without a price.
var itemObject = httpapi.LineMembers.With(
	httpapi.Whole("position", func(l httpapi.Line) int { return l.Position }),
	httpapi.Dec("utilization", func(l httpapi.Line) decimal.Decimal { return l.Utilization.Decimal }).
		OmitIf(func(l httpapi.Line) bool { return !l.Utilization.Valid }),
	httpapi.LineMissing,
)

// appendItems appends `items`: keyed by appendItemID, empty in a list.
func appendItems(e *httpapi.Encoder, d *compositionDoc) {
	pc := d.pc
	n := len(pc.Items)
	if !d.withItems {
		n = 0
	}
	e.Keyed(n, func(i int, dst []byte) []byte { return appendItemID(dst, pc.Items[i].Item) }, func(e *httpapi.Encoder, i int) {
		itemObject.Append(e, httpapi.Line{PricedItem: &pc.Items[i], Rounding: pc.Rounding, Position: i + 1})
	})
}

// appendItemID appends the key of an item in a composition's `items`
// object: "<BANK>:<C|R>:<code>" — the bank as the composition names it
// (MYBASE for the company's own records), C for a composition or R for a
// resource, and the code exactly as the bank writes it, leading zeros kept.
// Examples: "SINAPI:C:88309", "SICRO3:R:E9017", "MYBASE:R:001". Bank, kind
// and code are what make a line unique in a composition, so an item keeps
// its id for as long as it is there, and adding the same line again keeps
// the id.
func appendItemID(dst []byte, it domain.Item) []byte {
	kind := "R"
	if it.Kind == domain.KindComposition {
		kind = "C"
	}
	dst = append(dst, it.Bank...)
	dst = append(dst, ':')
	dst = append(dst, kind...)
	dst = append(dst, ':')
	return append(dst, it.Code...)
}

// resourceDoc is a resource of the company's own base as v2 writes it
// (JSON:API type "resources"): locals are the four prices (pnd, pd, pndi,
// pdi) of each state. The resource type (an integer of the resource types
// catalogue) is resource_type only: JSON:API reserves an attribute named
// type, and unlike a composition's no seed client reads it
// (docs/decisions.md). The relationship `group` is there only when the
// resource belongs to a group.
type resourceDoc struct {
	env *httpapi.Env
	res *domain.Resource
}

func (h *handlers) resourceDoc(res *domain.Resource) *resourceDoc {
	return &resourceDoc{env: h.env, res: res}
}

func (d *resourceDoc) self() relTarget { return relTarget{"resources", d.res.ID} }

func (d *resourceDoc) related(name string) (relTarget, bool) {
	return ownerRelated(name, d.res.UserID, d.res.DepartmentID, d.res.GroupID)
}

func (d *resourceDoc) appendObject(e *httpapi.Encoder, base string, set fieldSet) {
	res := d.res
	appendObjectStart(e, d.self())
	resourceAttributes.AppendSelected(e, d, false, set.keepFunc())
	e.Byte('}')
	appendOwnerRelationships(e, base, res.UserID, res.DepartmentID, res.GroupID, set)
	e.Byte('}')
}

// resourceAttributes is resourceDoc's attributes, one a line, in any
// order: they are written sorted by name.
var resourceAttributes = httpapi.SortedObject(
	httpapi.Str("code", func(d *resourceDoc) string { return d.res.Code }),
	httpapi.Field("created_at", func(e *httpapi.Encoder, d *resourceDoc) { e.Time(d.env, d.res.CreatedAt) }),
	httpapi.Str("description", func(d *resourceDoc) string { return d.res.Description }),
	httpapi.Boolean("is_sicro", func(d *resourceDoc) bool { return d.res.IsSicro }),
	httpapi.Field("locals", func(e *httpapi.Encoder, d *resourceDoc) {
		httpapi.Map(e, d.res.Locals, func(e *httpapi.Encoder, p domain.PriceLine) { httpapi.PriceLine.Append(e, p) })
	}),
	httpapi.Str("note", func(d *resourceDoc) string { return d.res.Note }),
	httpapi.Whole("resource_type", func(d *resourceDoc) int { return d.res.Type }),
	httpapi.Str("secondary_code", func(d *resourceDoc) string { return d.res.SecondCode }),
	httpapi.Boolean("status", func(d *resourceDoc) bool { return d.res.Status }),
	httpapi.TagList(func(d *resourceDoc) []string { return d.res.Tags }),
	httpapi.Str("unit", func(d *resourceDoc) string { return d.res.Unit }),
)
