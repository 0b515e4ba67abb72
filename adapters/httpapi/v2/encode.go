package v2

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/jsonapi"
)

// The records read most (a composition with its items, a resource, and
// their lists) are written without reflection (docs/decisions.md,
// "Answers written without reflection"): each is a docObject that appends its
// JSON:API resource object to an httpapi.Encoder, byte for byte what
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
	// appendObject appends the resource object; base is apiBase.
	appendObject(e *httpapi.Encoder, base string)
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
		o.appendObject(e, base)
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
func appendMap[M ~map[string]any](e *httpapi.Encoder, m M) error {
	if m == nil {
		e.Null()
		return nil
	}
	var small [8]string
	keys := small[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	e.Byte('{')
	for i, k := range keys {
		if i > 0 {
			e.Byte(',')
		}
		e.String(k)
		e.Byte(':')
		switch v := m[k].(type) {
		case string:
			e.String(v)
		case int:
			e.Int(v)
		default:
			if err := e.Value(v); err != nil {
				return err
			}
		}
	}
	e.Byte('}')
	return nil
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
func appendOwnerRelationships(e *httpapi.Encoder, base, userID, sectorID, groupID string) {
	e.Raw(`,"relationships":{`)
	if groupID != "" {
		appendRelationship(e, base, "group", relTarget{"groups", groupID}, false)
	}
	appendRelationship(e, base, "sector", relTarget{"sectors", sectorID}, groupID != "")
	appendRelationship(e, base, "user", relTarget{"users", userID}, true)
	e.Byte('}')
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

// scratch is the sorting space of an encoding.
type scratch struct {
	keys []byte
	idx  []int
	off  []int
	strs []string
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// sortedLast sorts the keys of n entries (key(i, dst) appends entry i's
// key) and returns the indexes of the entries in key order, only the last
// entry of each key: what encoding/json writes of a map filled in entry
// order.
func (s *scratch) sortedLast(n int, key func(i int, dst []byte) []byte) []int {
	s.keys, s.idx, s.off = s.keys[:0], s.idx[:0], s.off[:0]
	for i := range n {
		s.off = append(s.off, len(s.keys))
		s.keys = key(i, s.keys)
		s.idx = append(s.idx, i)
	}
	s.off = append(s.off, len(s.keys))
	k := func(i int) []byte { return s.keys[s.off[i]:s.off[i+1]] }
	slices.SortStableFunc(s.idx, func(a, b int) int { return bytes.Compare(k(a), k(b)) })
	out := s.idx[:0]
	for j, i := range s.idx {
		if j+1 < len(s.idx) && bytes.Equal(k(i), k(s.idx[j+1])) {
			continue // a later entry of the same key replaces it
		}
		out = append(out, i)
	}
	return out
}

func (d *compositionDoc) appendObject(e *httpapi.Encoder, base string) {
	pc := d.pc
	c := pc.Composition
	p := pc.Prices
	s := scratches.Get().(*scratch)
	defer scratches.Put(s)

	appendObjectStart(e, d.self())
	e.Raw(`"banks":{`)
	for j, i := range s.sortedLast(len(c.Banks), func(i int, dst []byte) []byte { return append(dst, c.Banks[i].Name...) }) {
		b := c.Banks[i]
		if j > 0 {
			e.Byte(',')
		}
		e.String(b.Name)
		e.Raw(`:{"estado":`)
		e.String(b.State)
		e.Raw(`,"data":`)
		e.String(b.Month)
		if reg := orElse(b.Region, b.AskedRegion); reg != "" {
			e.Raw(`,"regiao":`)
			e.String(reg)
		}
		e.Raw(`,"relatorio":`)
		e.Bool(b.Report)
		e.Byte('}')
	}
	e.Raw(`},"calculation_method":{"type":`)
	e.Int(int(c.Rounding))
	e.Raw(`,"description":`)
	e.String(c.Rounding.Description())
	e.Raw(`},"code":`)
	e.String(c.Code)
	e.Raw(`,"composition_type":`)
	e.String(c.Type)
	e.Raw(`,"created_at":`)
	e.Time(d.env, c.CreatedAt)
	e.Raw(`,"description":`)
	e.String(c.Description)
	e.Raw(`,"fic":`)
	e.Num(c.FIC)
	if pc.Incomplete() {
		e.Raw(`,"incomplete":true`)
	}
	e.Raw(`,"is_sicro":`)
	e.Bool(c.IsSicro)
	e.Raw(`,"items":{`)
	if d.withItems {
		order := s.sortedLast(len(pc.Items), func(i int, dst []byte) []byte { return appendItemID(dst, pc.Items[i].Item) })
		for j, i := range order {
			it := &pc.Items[i]
			if j > 0 {
				e.Byte(',')
			}
			e.StringBytes(s.keys[s.off[i]:s.off[i+1]])
			unpricedND, unpricedD := !it.Priced(domain.NaoDesonerado), !it.Priced(domain.Desonerado)
			e.Raw(`:{"banco":`)
			e.String(it.Bank)
			e.Raw(`,"code":`)
			e.String(it.Code)
			e.Raw(`,"description":`)
			e.String(it.Description)
			e.Raw(`,"type":`)
			e.String(it.Type)
			e.Raw(`,"unit":`)
			e.String(it.Unit)
			e.Raw(`,"unitary_pnd":`)
			e.NumOrNull(it.UnitPrice.PND, unpricedND)
			e.Raw(`,"unitary_pd":`)
			e.NumOrNull(it.UnitPrice.PD, unpricedD)
			e.Raw(`,"coefficient":`)
			e.Num(it.Quantity)
			e.Raw(`,"pnd":`)
			e.NumOrNull(c.Rounding.ShowLine(it.Total.PND), unpricedND)
			e.Raw(`,"pd":`)
			e.NumOrNull(c.Rounding.ShowLine(it.Total.PD), unpricedD)
			e.Raw(`,"is_resource":`)
			e.Bool(it.Kind == domain.KindResource)
			e.Raw(`,"position":`)
			e.Int(i + 1)
			if it.Utilization.Valid {
				e.Raw(`,"utilization":`)
				e.Num(it.Utilization.Decimal)
			}
			if it.Missing {
				e.Raw(`,"missing":true`)
			}
			e.Byte('}')
		}
	}
	e.Raw(`},"labor":`)
	e.Bool(c.Labor)
	e.Raw(`,"labor_addition":`)
	e.Num(c.LaborAddition)
	e.Raw(`,"location":`)
	e.String(c.State)
	if len(pc.Missing) > 0 {
		e.Raw(`,"missing":`)
		appendMissingItems(e, pc.Missing)
	}
	e.Raw(`,"note":`)
	e.String(c.Note)
	e.Raw(`,"omitted_items":`)
	if d.withItems {
		e.Int(0)
	} else {
		e.Int(len(pc.Items))
	}
	e.Raw(`,"prices":{"pnd":`)
	e.Num(p.PND)
	e.Raw(`,"pd":`)
	e.Num(p.PD)
	e.SicroPrices(p)
	e.Raw(`},"secondary_code":`)
	e.String(c.SecondCode)
	e.Raw(`,"team_production":`)
	e.Num(c.TeamProduction)
	e.Raw(`,"type":`)
	e.String(c.Type)
	e.Raw(`,"unit":`)
	e.String(c.Unit)
	e.Byte('}')
	appendOwnerRelationships(e, base, c.UserID, c.DepartmentID, c.GroupID)
	e.Byte('}')
}

// orElse is a, or b when a is empty.
func orElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
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

// appendMissingItems appends httpapi.MissingItems(ms).
func appendMissingItems(e *httpapi.Encoder, ms []domain.MissingPrice) {
	e.Byte('[')
	for i, m := range ms {
		if i > 0 {
			e.Byte(',')
		}
		e.Raw(`{"banco":`)
		e.String(m.Bank)
		e.Raw(`,"code":`)
		e.String(m.Code)
		e.Raw(`,"is_resource":`)
		e.Bool(m.Kind == domain.KindResource)
		e.Raw(`,"reason":`)
		e.String(m.Reason)
		e.Byte('}')
	}
	e.Byte(']')
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

func (d *resourceDoc) appendObject(e *httpapi.Encoder, base string) {
	res := d.res
	appendObjectStart(e, d.self())
	e.Raw(`"code":`)
	e.String(res.Code)
	e.Raw(`,"created_at":`)
	e.Time(d.env, res.CreatedAt)
	e.Raw(`,"description":`)
	e.String(res.Description)
	e.Raw(`,"is_sicro":`)
	e.Bool(res.IsSicro)
	e.Raw(`,"locals":{`)
	s := scratches.Get().(*scratch)
	s.strs = s.strs[:0]
	for st := range res.Locals {
		s.strs = append(s.strs, st)
	}
	slices.Sort(s.strs)
	for i, st := range s.strs {
		p := res.Locals[st]
		if i > 0 {
			e.Byte(',')
		}
		e.String(st)
		e.Raw(`:{"pnd":`)
		e.Num(p.PND)
		e.Raw(`,"pd":`)
		e.Num(p.PD)
		e.Raw(`,"pndi":`)
		e.Num(p.PNDI)
		e.Raw(`,"pdi":`)
		e.Num(p.PDI)
		e.Byte('}')
	}
	clear(s.strs)
	scratches.Put(s)
	e.Raw(`},"note":`)
	e.String(res.Note)
	e.Raw(`,"resource_type":`)
	e.Int(res.Type)
	e.Raw(`,"secondary_code":`)
	e.String(res.SecondCode)
	e.Raw(`,"status":`)
	e.Bool(res.Status)
	e.Raw(`,"unit":`)
	e.String(res.Unit)
	e.Byte('}')
	appendOwnerRelationships(e, base, res.UserID, res.DepartmentID, res.GroupID)
	e.Byte('}')
}
