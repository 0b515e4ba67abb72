package app

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
)

// ListQuery selects, orders and pages the records of a list.
//
// Filters maps a filter name to its value (v2: filter[name]=value); a record
// is listed when it matches every filter. Text filters (code, description,
// search) match when the record's text contains the value, ignoring case and
// accents; the others match exactly. Sort orders by each key in turn; records
// equal on every key, and every list without Sort, stay in creation order.
// Zone is the time zone a date without a time (YYYY-MM-DD) is read in; nil
// means UTC.
//
// A list method returns EBADREQUEST for an unknown filter or sort field, or a
// bad filter value; each field error names the query parameter as JSON:API
// spells it ("filter[status]", "sort").
type ListQuery struct {
	Filters map[string]string
	Sort    []SortKey
	Page    Page
	Zone    *time.Location
}

// SortKey orders a list by one field, descending when Desc.
type SortKey struct {
	Field string
	Desc  bool
}

// listSpec is what a list can be filtered and sorted by.
type listSpec[T any] struct {
	filters []filterSpec[T]
	sorts   []sortSpec[T]
	id      func(T) string
}

// filterSpec is one filter. names[0] is its name; the others are aliases
// (resource_type and type name the same filter).
type filterSpec[T any] struct {
	names []string
	parse parser[T]
}

// sortSpec is one field a list can be sorted by, with aliases as filterSpec.
type sortSpec[T any] struct {
	names []string
	cmp   func(a, b T) int
}

// selection is a compiled ListQuery: the predicates and the order.
type selection[T any] struct {
	match []func(T) bool
	order []func(a, b T) int
	id    func(T) string
	page  Page
}

// compile checks q against spec and returns the selection, or EBADREQUEST
// naming every bad parameter.
func compile[T any](spec listSpec[T], q ListQuery) (*selection[T], error) {
	sel := &selection[T]{id: spec.id, page: q.Page}
	var bad []domain.FieldError
	fail := func(param, format string, args ...any) {
		bad = append(bad, domain.FieldError{Field: param, Message: fmt.Sprintf(format, args...)})
	}
	zone := q.Zone
	if zone == nil {
		zone = time.UTC
	}

	names := make([]string, 0, len(q.Filters))
	for name := range q.Filters {
		names = append(names, name)
	}
	slices.Sort(names)
	seen := map[string]string{} // filter name → parameter that used it
	for _, name := range names {
		param := "filter[" + name + "]"
		f, ok := find(spec.filters, name)
		if !ok {
			fail(param, "is not a filter of this list (filters: %s)", allNames(spec.filters))
			continue
		}
		if other, dup := seen[f.names[0]]; dup {
			fail(param, "filters the same field as %s", other)
			continue
		}
		seen[f.names[0]] = param
		value := strings.TrimSpace(q.Filters[name])
		if value == "" {
			fail(param, "must not be empty (leave the filter out to list everything)")
			continue
		}
		pred, msg := f.parse(value, zone)
		if msg != "" {
			fail(param, "%s", msg)
			continue
		}
		sel.match = append(sel.match, pred)
	}

	used := map[string]bool{}
	for _, k := range q.Sort {
		s, ok := find(spec.sorts, k.Field)
		if !ok {
			fail("sort", "cannot sort by %q (fields: %s)", k.Field, allNames(spec.sorts))
			continue
		}
		if used[s.names[0]] {
			fail("sort", "names the field %s more than once", s.names[0])
			continue
		}
		used[s.names[0]] = true
		c := s.cmp
		if k.Desc {
			c = func(a, b T) int { return s.cmp(b, a) }
		}
		sel.order = append(sel.order, c)
	}
	if len(bad) > 0 {
		return nil, &domain.Error{Code: domain.EBADREQUEST, Message: "bad list query: " + bad[0].Field + " " + bad[0].Message, Fields: bad}
	}
	return sel, nil
}

// apply filters and orders all (in creation order) and returns the page
// asked for and the number of records that match.
func (s *selection[T]) apply(all []T) ([]T, int) {
	out := make([]T, 0, len(all))
	for _, x := range all {
		if s.matches(x) {
			out = append(out, x)
		}
	}
	if len(s.order) > 0 {
		slices.SortStableFunc(out, func(a, b T) int {
			for _, c := range s.order {
				if r := c(a, b); r != 0 {
					return r
				}
			}
			return strings.Compare(s.id(a), s.id(b))
		})
	}
	lo, hi := s.page.window(len(out))
	return out[lo:hi], len(out)
}

func (s *selection[T]) matches(x T) bool {
	for _, m := range s.match {
		if !m(x) {
			return false
		}
	}
	return true
}

// named is a filter or a sort field: its name, then its aliases.
type named interface{ aliases() []string }

func (f filterSpec[T]) aliases() []string { return f.names }
func (s sortSpec[T]) aliases() []string   { return s.names }

// find returns the entry of list known by name.
func find[S named](list []S, name string) (S, bool) {
	for _, x := range list {
		if slices.Contains(x.aliases(), name) {
			return x, true
		}
	}
	var zero S
	return zero, false
}

// allNames lists every name of every entry, for error messages.
func allNames[S named](list []S) string {
	var out []string
	for _, x := range list {
		out = append(out, x.aliases()...)
	}
	return strings.Join(out, ", ")
}

// The filters and sort fields of the three lists.

var groupList = listSpec[*domain.Group]{
	filters: []filterSpec[*domain.Group]{
		{names: []string{"description"}, parse: contains(func(g *domain.Group) string { return g.Description })},
		{names: []string{"created_after"}, parse: createdAfter(func(g *domain.Group) time.Time { return g.CreatedAt })},
		{names: []string{"created_before"}, parse: createdBefore(func(g *domain.Group) time.Time { return g.CreatedAt })},
	},
	sorts: []sortSpec[*domain.Group]{
		{names: []string{"description"}, cmp: byText(func(g *domain.Group) string { return g.Description })},
		{names: []string{"created_at"}, cmp: byTime(func(g *domain.Group) time.Time { return g.CreatedAt })},
	},
	id: func(g *domain.Group) string { return g.ID },
}

var resourceList = listSpec[*domain.Resource]{
	filters: []filterSpec[*domain.Resource]{
		{names: []string{"code"}, parse: contains(resCode)},
		{names: []string{"description"}, parse: contains(resDescription)},
		{names: []string{"search"}, parse: contains(resCode, resDescription)},
		{names: []string{"resource_type", "type"}, parse: resourceType},
		{names: []string{"unit"}, parse: equalFold(func(r *domain.Resource) string { return r.Unit }, nil)},
		{names: []string{"group"}, parse: sameID(func(r *domain.Resource) string { return r.GroupID })},
		{names: []string{"state"}, parse: pricedIn},
		{names: []string{"status"}, parse: boolean(func(r *domain.Resource) bool { return r.Status })},
		{names: []string{"is_sicro"}, parse: boolean(func(r *domain.Resource) bool { return r.IsSicro })},
		{names: []string{"created_after"}, parse: createdAfter(func(r *domain.Resource) time.Time { return r.CreatedAt })},
		{names: []string{"created_before"}, parse: createdBefore(func(r *domain.Resource) time.Time { return r.CreatedAt })},
	},
	sorts: []sortSpec[*domain.Resource]{
		{names: []string{"code"}, cmp: byCode(resCode)},
		{names: []string{"description"}, cmp: byText(resDescription)},
		{names: []string{"resource_type", "type"}, cmp: byInt(func(r *domain.Resource) int { return r.Type })},
		{names: []string{"unit"}, cmp: byText(func(r *domain.Resource) string { return r.Unit })},
		{names: []string{"status"}, cmp: byBool(func(r *domain.Resource) bool { return r.Status })},
		{names: []string{"is_sicro"}, cmp: byBool(func(r *domain.Resource) bool { return r.IsSicro })},
		{names: []string{"created_at"}, cmp: byTime(func(r *domain.Resource) time.Time { return r.CreatedAt })},
	},
	id: func(r *domain.Resource) string { return r.ID },
}

var compositionList = listSpec[*domain.Composition]{
	filters: []filterSpec[*domain.Composition]{
		{names: []string{"code"}, parse: contains(compCode)},
		{names: []string{"description"}, parse: contains(compDescription)},
		{names: []string{"search"}, parse: contains(compCode, compDescription)},
		{names: []string{"composition_type", "type"}, parse: compositionClass},
		{names: []string{"unit"}, parse: equalFold(func(c *domain.Composition) string { return c.Unit }, nil)},
		{names: []string{"location", "state"}, parse: equalFold(compState, stateCode)},
		{names: []string{"group"}, parse: sameID(func(c *domain.Composition) string { return c.GroupID })},
		{names: []string{"is_sicro"}, parse: boolean(func(c *domain.Composition) bool { return c.IsSicro })},
		{names: []string{"created_after"}, parse: createdAfter(func(c *domain.Composition) time.Time { return c.CreatedAt })},
		{names: []string{"created_before"}, parse: createdBefore(func(c *domain.Composition) time.Time { return c.CreatedAt })},
	},
	sorts: []sortSpec[*domain.Composition]{
		{names: []string{"code"}, cmp: byCode(compCode)},
		{names: []string{"description"}, cmp: byText(compDescription)},
		{names: []string{"composition_type", "type"}, cmp: byText(func(c *domain.Composition) string { return c.Type })},
		{names: []string{"unit"}, cmp: byText(func(c *domain.Composition) string { return c.Unit })},
		{names: []string{"location", "state"}, cmp: byText(compState)},
		{names: []string{"is_sicro"}, cmp: byBool(func(c *domain.Composition) bool { return c.IsSicro })},
		{names: []string{"created_at"}, cmp: byTime(func(c *domain.Composition) time.Time { return c.CreatedAt })},
	},
	id: func(c *domain.Composition) string { return c.ID },
}

func resCode(r *domain.Resource) string            { return r.Code }
func resDescription(r *domain.Resource) string     { return r.Description }
func compCode(c *domain.Composition) string        { return c.Code }
func compDescription(c *domain.Composition) string { return c.Description }
func compState(c *domain.Composition) string       { return c.State }

// Filters.

// parser turns a filter value into the predicate, or says what is wrong
// with the value.
type parser[T any] func(value string, zone *time.Location) (func(T) bool, string)

// contains matches when any of the texts contains the value, ignoring case
// and accents ("alvenaria" matches "ALVENARIA", "agua" matches "ÁGUA").
func contains[T any](texts ...func(T) string) parser[T] {
	return func(v string, _ *time.Location) (func(T) bool, string) {
		want := fold(v)
		return func(x T) bool {
			for _, text := range texts {
				if strings.Contains(fold(text(x)), want) {
					return true
				}
			}
			return false
		}, ""
	}
}

// equalFold matches a text equal to the value, ignoring case; check, when
// set, refuses values that could never match.
func equalFold[T any](text func(T) string, check func(string) string) parser[T] {
	return func(v string, _ *time.Location) (func(T) bool, string) {
		if check != nil {
			if msg := check(v); msg != "" {
				return nil, msg
			}
		}
		return func(x T) bool { return strings.EqualFold(text(x), v) }, ""
	}
}

func stateCode(v string) string {
	if !domain.ValidState(strings.ToUpper(v)) {
		return "is not a state code (see the states catalogue)"
	}
	return ""
}

func compositionClass(v string, zone *time.Location) (func(*domain.Composition) bool, string) {
	return equalFold(func(c *domain.Composition) string { return c.Type }, func(v string) string {
		if !domain.ValidCompositionClass(strings.ToUpper(v)) {
			return "is not a composition class (see the composition_classes catalogue)"
		}
		return ""
	})(v, zone)
}

func resourceType(v string, _ *time.Location) (func(*domain.Resource) bool, string) {
	t, err := strconv.Atoi(v)
	if err != nil || !domain.ValidResourceType(t) {
		return nil, "is not a resource type (see the resource_types catalogue)"
	}
	return func(r *domain.Resource) bool { return r.Type == t }, ""
}

// pricedIn matches a resource with a price line in the state.
func pricedIn(v string, _ *time.Location) (func(*domain.Resource) bool, string) {
	if msg := stateCode(v); msg != "" {
		return nil, msg
	}
	st := strings.ToUpper(v)
	return func(r *domain.Resource) bool { _, ok := r.Locals[st]; return ok }, ""
}

// sameID matches the record whose id (a group's) is the value, exactly.
func sameID[T any](id func(T) string) parser[T] {
	return func(v string, _ *time.Location) (func(T) bool, string) {
		return func(x T) bool { return id(x) == v }, ""
	}
}

func boolean[T any](get func(T) bool) parser[T] {
	return func(v string, _ *time.Location) (func(T) bool, string) {
		var want bool
		switch v {
		case "true":
			want = true
		case "false":
		default:
			return nil, "must be true or false"
		}
		return func(x T) bool { return get(x) == want }, ""
	}
}

// createdAfter matches records created at or after the instant; a date
// alone is the start of that day in the query's zone.
func createdAfter[T any](at func(T) time.Time) parser[T] {
	return func(v string, zone *time.Location) (func(T) bool, string) {
		t, ok := parseInstant(v, zone)
		if !ok {
			return nil, "must be a date (YYYY-MM-DD) or an RFC 3339 date-time"
		}
		return func(x T) bool { return !at(x).Before(t) }, ""
	}
}

// createdBefore matches records created strictly before the instant; a date
// alone is the start of that day, so that created_after=2026-08-01 and
// created_before=2026-09-01 select August.
func createdBefore[T any](at func(T) time.Time) parser[T] {
	return func(v string, zone *time.Location) (func(T) bool, string) {
		t, ok := parseInstant(v, zone)
		if !ok {
			return nil, "must be a date (YYYY-MM-DD) or an RFC 3339 date-time"
		}
		return func(x T) bool { return at(x).Before(t) }, ""
	}
}

// parseInstant reads YYYY-MM-DD (midnight in zone) or RFC 3339. A "+" of the
// offset that arrived as a space (an unescaped + in a query string) is
// taken as the "+" it was.
func parseInstant(v string, zone *time.Location) (time.Time, bool) {
	if t, err := time.ParseInLocation(time.DateOnly, v, zone); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339, strings.Replace(v, " ", "+", 1)); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// Orders.

// byText orders ignoring case and accents, then by the exact text.
func byText[T any](text func(T) string) func(a, b T) int {
	return func(a, b T) int {
		ta, tb := text(a), text(b)
		if c := strings.Compare(fold(ta), fold(tb)); c != 0 {
			return c
		}
		return strings.Compare(ta, tb)
	}
}

// byCode orders codes naturally: runs of digits by their value, so that 9
// comes before 10 and 88309 before 100001; the rest as byText.
func byCode[T any](code func(T) string) func(a, b T) int {
	return func(a, b T) int {
		ca, cb := code(a), code(b)
		if c := naturalCompare(fold(ca), fold(cb)); c != 0 {
			return c
		}
		return strings.Compare(ca, cb)
	}
}

func byInt[T any](get func(T) int) func(a, b T) int {
	return func(a, b T) int { return cmp.Compare(get(a), get(b)) }
}

// byBool orders false before true.
func byBool[T any](get func(T) bool) func(a, b T) int {
	return func(a, b T) int {
		switch x, y := get(a), get(b); {
		case x == y:
			return 0
		case !x:
			return -1
		}
		return 1
	}
}

func byTime[T any](get func(T) time.Time) func(a, b T) int {
	return func(a, b T) int { return get(a).Compare(get(b)) }
}

// naturalCompare compares a and b with runs of ASCII digits compared by
// their numeric value (leading zeros ignored, "007" equal to "7"), and
// everything else byte by byte.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			da, ra := digits(a)
			db, rb := digits(b)
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digits(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// fold returns s in lower case without accents ("Água Fria" → "agua
// fria"), the form text filters and orders compare. Combining marks (text
// sent decomposed) are dropped too.
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf { // ASCII: no accent to drop, no table to read
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		if base, ok := unaccented[r]; ok {
			r = base
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unaccented maps the accented lower-case Latin letters (Latin-1 and Latin
// Extended-A, which cover Portuguese and its neighbours) to their base letter.
var unaccented = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ",
		'h': "ĥħ", 'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ",
		'o': "òóôõöøōŏő", 'r': "ŕŗř", 's': "śŝşš", 't': "ţťŧ", 'u': "ùúûüũūŭůűų",
		'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()
