package httpapi

import (
	"bytes"
	"slices"
	"strings"
	"sync"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The answers written without reflection are tables: an Object is the list
// of the members of a JSON object, each declared once, on one line (its
// name, and how its value is read from the record), and written by the
// Encoder in the table's order. A field added to an answer is a line added
// to its table; the members both generations show alike (a composition's
// items, its prices, what is missing, its calculation method) are declared
// here once and shared.

// Member is one member of a JSON object written from a T.
type Member[T any] struct {
	// Name is the member's name (plain ASCII: it is written as it is).
	Name string
	// One of the getters says how the value is written: str, dec, boolean
	// or whole read it, value writes it.
	str     func(v T) string
	dec     func(v T) decimal.Decimal
	boolean func(v T) bool
	whole   func(v T) int
	value   func(e *Encoder, v T)
	// nullIfEmpty writes an empty string as null.
	nullIfEmpty bool
	omit        func(v T) bool
}

// OmitIf leaves the member out of the records for which omit is true.
func (m Member[T]) OmitIf(omit func(v T) bool) Member[T] {
	m.omit = omit
	return m
}

// Field is a member whose value value writes.
func Field[T any](name string, value func(e *Encoder, v T)) Member[T] {
	return Member[T]{Name: name, value: value}
}

// Str is a string member.
func Str[T any](name string, get func(v T) string) Member[T] {
	return Member[T]{Name: name, str: get}
}

// StrOrNull is a string member written null when empty.
func StrOrNull[T any](name string, get func(v T) string) Member[T] {
	return Member[T]{Name: name, str: get, nullIfEmpty: true}
}

// Dec is a number member (Encoder.Num).
func Dec[T any](name string, get func(v T) decimal.Decimal) Member[T] {
	return Member[T]{Name: name, dec: get}
}

// DecOrNull is a number member written null when get says the figure is
// missing (Encoder.NumOrNull).
func DecOrNull[T any](name string, get func(v T) (d decimal.Decimal, missing bool)) Member[T] {
	return Field(name, func(e *Encoder, v T) { e.NumOrNull(get(v)) })
}

// Whole is an integer member.
func Whole[T any](name string, get func(v T) int) Member[T] {
	return Member[T]{Name: name, whole: get}
}

// Boolean is a true/false member.
func Boolean[T any](name string, get func(v T) bool) Member[T] {
	return Member[T]{Name: name, boolean: get}
}

// Strs is a list of strings member, [] when empty.
func Strs[T any](name string, get func(v T) []string) Member[T] {
	return Field(name, func(e *Encoder, v T) { e.StringList(get(v)) })
}

// write writes the member's value.
func (m *Member[T]) write(e *Encoder, v T) {
	switch {
	case m.str != nil:
		if s := m.str(v); s != "" || !m.nullIfEmpty {
			e.String(s)
		} else {
			e.Null()
		}
	case m.dec != nil:
		e.Num(m.dec(v))
	case m.boolean != nil:
		e.Bool(m.boolean(v))
	case m.whole != nil:
		e.Int(m.whole(v))
	default:
		m.value(e, v)
	}
}

// TagList is the member `tags` of a record (domain.CheckTags), left out
// when it has none.
func TagList[T any](get func(v T) []string) Member[T] {
	return Strs("tags", get).OmitIf(func(v T) bool { return len(get(v)) == 0 })
}

// Object is the members of a JSON object, in the order they are written.
type Object[T any] struct {
	members []Member[T]
	keys    []string // `"name":` of each member
}

// NewObject is an object of members in the order given.
func NewObject[T any](members ...Member[T]) *Object[T] {
	o := &Object[T]{members: members}
	for _, m := range members {
		o.keys = append(o.keys, `"`+m.Name+`":`)
	}
	return o
}

// SortedObject is an object of members sorted by name, as encoding/json
// writes a map (JSON:API attributes): a member is declared anywhere in
// the list.
func SortedObject[T any](members ...Member[T]) *Object[T] {
	members = slices.Clone(members)
	slices.SortStableFunc(members, func(a, b Member[T]) int { return strings.Compare(a.Name, b.Name) })
	return NewObject(members...)
}

// With is an object of o's members followed by more.
func (o *Object[T]) With(more ...Member[T]) *Object[T] {
	return NewObject(append(slices.Clone(o.members), more...)...)
}

// Names are the names of o's members, in the order they are written.
func (o *Object[T]) Names() []string {
	names := make([]string, len(o.members))
	for i, m := range o.members {
		names[i] = m.Name
	}
	return names
}

// Append appends the object of v.
func (o *Object[T]) Append(e *Encoder, v T) {
	e.Byte('{')
	o.AppendMembers(e, v, false)
	e.Byte('}')
}

// AppendMembers appends the members of v without the braces, the first
// one preceded by a comma when comma; it says whether one was written.
func (o *Object[T]) AppendMembers(e *Encoder, v T, comma bool) bool {
	return o.AppendSelected(e, v, comma, nil)
}

// AppendSelected is AppendMembers writing only the members keep says yes
// to (every member when keep is nil): a JSON:API sparse fieldset.
func (o *Object[T]) AppendSelected(e *Encoder, v T, comma bool, keep func(name string) bool) bool {
	wrote := false
	for i := range o.members {
		m := &o.members[i]
		if m.omit != nil && m.omit(v) || keep != nil && !keep(m.Name) {
			continue
		}
		if comma || wrote {
			e.Byte(',')
		}
		e.Raw(o.keys[i])
		m.write(e, v)
		wrote = true
	}
	return wrote
}

// StringList appends ss as a JSON array of strings ([] when empty).
func (e *Encoder) StringList(ss []string) {
	e.Byte('[')
	for i, s := range ss {
		if i > 0 {
			e.Byte(',')
		}
		e.String(s)
	}
	e.Byte(']')
}

// Array appends an array of n values, value(e, i) writing the i-th.
func (e *Encoder) Array(n int, value func(e *Encoder, i int)) {
	e.Byte('[')
	for i := range n {
		if i > 0 {
			e.Byte(',')
		}
		value(e, i)
	}
	e.Byte(']')
}

// keyScratch is the sorting space of a keyed object.
type keyScratch struct {
	keys []byte
	idx  []int
	off  []int
	strs []string
}

var keyScratches = sync.Pool{New: func() any { return new(keyScratch) }}

// Keyed appends an object of n entries as encoding/json writes a map
// filled in entry order: key(i, dst) appends entry i's key; the entries
// are written in key order, only the last of a repeated key, value(e, i)
// writing entry i's value.
func (e *Encoder) Keyed(n int, key func(i int, dst []byte) []byte, value func(e *Encoder, i int)) {
	s := keyScratches.Get().(*keyScratch)
	defer keyScratches.Put(s)
	s.keys, s.idx, s.off = s.keys[:0], s.idx[:0], s.off[:0]
	for i := range n {
		s.off = append(s.off, len(s.keys))
		s.keys = key(i, s.keys)
		s.idx = append(s.idx, i)
	}
	s.off = append(s.off, len(s.keys))
	k := func(i int) []byte { return s.keys[s.off[i]:s.off[i+1]] }
	slices.SortStableFunc(s.idx, func(a, b int) int { return bytes.Compare(k(a), k(b)) })
	e.Byte('{')
	wrote := false
	for j, i := range s.idx {
		if j+1 < len(s.idx) && bytes.Equal(k(i), k(s.idx[j+1])) {
			continue // a later entry of the same key replaces it
		}
		if wrote {
			e.Byte(',')
		}
		e.StringBytes(k(i))
		e.Byte(':')
		value(e, i)
		wrote = true
	}
	e.Byte('}')
}

// Map appends m as encoding/json writes a map: keys sorted, value(e, v)
// writing each value.
func Map[V any](e *Encoder, m map[string]V, value func(e *Encoder, v V)) {
	s := keyScratches.Get().(*keyScratch)
	s.strs = s.strs[:0]
	for k := range m {
		s.strs = append(s.strs, k)
	}
	slices.Sort(s.strs)
	e.Byte('{')
	for i, k := range s.strs {
		if i > 0 {
			e.Byte(',')
		}
		e.String(k)
		e.Byte(':')
		value(e, m[k])
	}
	e.Byte('}')
	clear(s.strs)
	keyScratches.Put(s)
}

// The members both generations show alike.

// Line is an item of a priced composition as an answer shows it: its
// line totals are cut by the composition's rounding method; Position is
// its 1-based place in the composition.
type Line struct {
	*domain.PricedItem
	Rounding domain.RoundingMethod
	Position int
}

// LineMembers are the members of a composition's item in both
// generations: coefficient is the quantity sent, pnd and pd the line
// totals at 2 decimals (domain.RoundingMethod.ShowLine), null (as the
// unit prices) for a regime the item has no price in.
var LineMembers = NewObject(
	Str("banco", func(l Line) string { return l.Bank }),
	Str("code", func(l Line) string { return l.Code }),
	Str("description", func(l Line) string { return l.Description }),
	Str("type", func(l Line) string { return l.Type }),
	Str("unit", func(l Line) string { return l.Unit }),
	DecOrNull("unitary_pnd", func(l Line) (decimal.Decimal, bool) { return l.UnitPrice.PND, !l.Priced(domain.NaoDesonerado) }),
	DecOrNull("unitary_pd", func(l Line) (decimal.Decimal, bool) { return l.UnitPrice.PD, !l.Priced(domain.Desonerado) }),
	Dec("coefficient", func(l Line) decimal.Decimal { return l.Quantity }),
	DecOrNull("pnd", func(l Line) (decimal.Decimal, bool) {
		return l.Rounding.ShowLine(l.Total.PND), !l.Priced(domain.NaoDesonerado)
	}),
	DecOrNull("pd", func(l Line) (decimal.Decimal, bool) {
		return l.Rounding.ShowLine(l.Total.PD), !l.Priced(domain.Desonerado)
	}),
	// A labour resource priced with the composition's own charges: its
	// price without charges and the percentage applied (left out
	// otherwise).
	Dec("labour_base", func(l Line) decimal.Decimal { return l.LabourBase.Decimal }).
		OmitIf(func(l Line) bool { return !l.LabourBase.Valid }),
	Dec("labour_charges", func(l Line) decimal.Decimal { return l.LabourCharges.Decimal }).
		OmitIf(func(l Line) bool { return !l.LabourCharges.Valid }),
	Boolean("is_resource", func(l Line) bool { return l.Kind == domain.KindResource }),
)

// LineMissing is the member `missing`, true, of an item without a price
// (left out otherwise): the last member of an item in both generations.
var LineMissing = Field("missing", func(e *Encoder, _ Line) { e.Bool(true) }).OmitIf(func(l Line) bool { return !l.Missing })

// MissingPrice is an entry of a composition's `missing` list
// (MissingItem).
var MissingPrice = NewObject(
	Str("banco", func(m *domain.MissingPrice) string { return m.Bank }),
	Str("code", func(m *domain.MissingPrice) string { return m.Code }),
	Boolean("is_resource", func(m *domain.MissingPrice) bool { return m.Kind == domain.KindResource }),
	Str("reason", func(m *domain.MissingPrice) string { return m.Reason }),
	Str("field", func(m *domain.MissingPrice) string { return m.Field }).OmitIf(func(m *domain.MissingPrice) bool { return m.Field == "" }),
)

// MissingPrices appends ms, a composition's `missing` list.
func (e *Encoder) MissingPrices(ms []domain.MissingPrice) {
	e.Array(len(ms), func(e *Encoder, i int) { MissingPrice.Append(e, &ms[i]) })
}

// CalculationMethod is a composition's calculation_method: how its line
// totals are cut.
var CalculationMethod = NewObject(
	Whole("type", func(r domain.RoundingMethod) int { return int(r) }),
	Str("description", domain.RoundingMethod.Description),
)

// CompositionPrices is a composition's `prices`: pnd and pd (null when the
// composition has no unit cost: domain.Prices.Unpriced), then the SICRO
// members, from ch_de_eq to cumo.
var CompositionPrices = NewObject(
	DecOrNull("pnd", func(p *domain.Prices) (decimal.Decimal, bool) { return p.PND, p.Unpriced[domain.NaoDesonerado] }),
	DecOrNull("pd", func(p *domain.Prices) (decimal.Decimal, bool) { return p.PD, p.Unpriced[domain.Desonerado] }),
	Dec("ch_de_eq", func(p *domain.Prices) decimal.Decimal { return p.ChDeEq }),
	Dec("chd_de_eq", func(p *domain.Prices) decimal.Decimal { return p.ChdDeEq }),
	Dec("chi_de_eq", func(p *domain.Prices) decimal.Decimal { return p.ChiDeEq }),
	Dec("chdi_de_eq", func(p *domain.Prices) decimal.Decimal { return p.ChdiDeEq }),
	Dec("ch_da_mo", func(p *domain.Prices) decimal.Decimal { return p.ChDaMo }),
	Dec("chd_da_mo", func(p *domain.Prices) decimal.Decimal { return p.ChdDaMo }),
	Dec("che", func(p *domain.Prices) decimal.Decimal { return p.CHE }),
	Dec("chde", func(p *domain.Prices) decimal.Decimal { return p.CHDE }),
	Dec("ch_incidencia", func(p *domain.Prices) decimal.Decimal { return p.ChIncidencia }),
	Dec("ctf", func(p *domain.Prices) decimal.Decimal { return p.CTF }),
	Dec("ctfd", func(p *domain.Prices) decimal.Decimal { return p.CTFD }),
	Dec("cuoi", func(p *domain.Prices) decimal.Decimal { return p.CUOI }),
	Dec("cuoid", func(p *domain.Prices) decimal.Decimal { return p.CUOID }),
	Dec("cca", func(p *domain.Prices) decimal.Decimal { return p.CCA }),
	Dec("ccad", func(p *domain.Prices) decimal.Decimal { return p.CCAD }),
	Dec("cumo", func(p *domain.Prices) decimal.Decimal { return p.CUMO }),
)

// BasePrices is `prices` of a composition of the SINAPI model in v1: pnd
// and pd only.
var BasePrices = NewObject(CompositionPrices.members[:2]...)

// PriceLine is the four prices of a resource in one state.
var PriceLine = NewObject(
	Dec("pnd", func(p domain.PriceLine) decimal.Decimal { return p.PND }),
	Dec("pd", func(p domain.PriceLine) decimal.Decimal { return p.PD }),
	Dec("pndi", func(p domain.PriceLine) decimal.Decimal { return p.PNDI }),
	Dec("pdi", func(p domain.PriceLine) decimal.Decimal { return p.PDI }),
)

// OrElse is a, or b when a is empty.
func OrElse(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
