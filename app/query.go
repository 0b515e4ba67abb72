package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// ListQuery selects, orders and pages the records of a list.
//
// Filters maps a filter name to its value (v2: filter[name]=value); a record
// is listed when it matches every filter. Text filters (code, description,
// search) match when the record's text contains each word of the value, in
// any order, ignoring case and accents; the others match exactly. Sort orders by each key in turn; records
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
	err := check(spec.filters, spec.sorts, q,
		func(f filterSpec[T], value string, zone *time.Location) string {
			pred, msg := f.parse(value, zone)
			if msg == "" {
				sel.match = append(sel.match, pred)
			}
			return msg
		},
		func(s sortSpec[T], desc bool) {
			c := s.cmp
			if desc {
				c = func(a, b T) int { return s.cmp(b, a) }
			}
			sel.order = append(sel.order, c)
		})
	if err != nil {
		return nil, err
	}
	return sel, nil
}

// check validates q's filters and sort keys against the lists of filters
// and sort fields, handing each good filter (its value trimmed) to filter,
// which parses it and returns what is wrong with the value, and each good
// sort key to order. It returns EBADREQUEST naming every bad parameter.
func check[F, S named](filters []F, sorts []S, q ListQuery, filter func(f F, value string, zone *time.Location) string, order func(s S, desc bool)) error {
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
		f, ok := find(filters, name)
		if !ok {
			fail(param, "is not a filter of this list (filters: %s)", allNames(filters))
			continue
		}
		canonical := f.aliases()[0]
		if other, dup := seen[canonical]; dup {
			fail(param, "filters the same field as %s", other)
			continue
		}
		seen[canonical] = param
		value := strings.TrimSpace(q.Filters[name])
		if value == "" {
			fail(param, "must not be empty (leave the filter out to list everything)")
			continue
		}
		if msg := filter(f, value, zone); msg != "" {
			fail(param, "%s", msg)
			continue
		}
	}

	used := map[string]bool{}
	for _, k := range q.Sort {
		s, ok := find(sorts, k.Field)
		if !ok {
			fail("sort", "cannot sort by %q (fields: %s)", k.Field, allNames(sorts))
			continue
		}
		canonical := s.aliases()[0]
		if used[canonical] {
			fail("sort", "names the field %s more than once", canonical)
			continue
		}
		used[canonical] = true
		order(s, k.Desc)
	}
	if len(bad) > 0 {
		return &domain.Error{Code: domain.EBADREQUEST, Message: "bad list query: " + bad[0].Field + " " + bad[0].Message, Fields: bad}
	}
	return nil
}

// querySpec is what a company list, answered by the store, can be filtered
// and sorted by: each filter becomes a Cond, each sort key an Order.
type querySpec struct {
	filters []queryFilter
	sorts   []querySort
}

// queryFilter is one filter of a store list; names as filterSpec's.
type queryFilter struct {
	names []string
	parse func(value string, zone *time.Location) (Cond, string)
}

// querySort is one sort field of a store list; names as sortSpec's.
type querySort struct {
	names []string
	field Field
}

func (f queryFilter) aliases() []string { return f.names }
func (s querySort) aliases() []string   { return s.names }

// compileQuery checks q against spec and returns the store query, or
// EBADREQUEST naming every bad parameter.
func compileQuery(spec querySpec, q ListQuery) (Query, error) {
	out := Query{Offset: q.Page.Offset, Limit: q.Page.Limit}
	err := check(spec.filters, spec.sorts, q,
		func(f queryFilter, value string, zone *time.Location) string {
			c, msg := f.parse(value, zone)
			if msg == "" {
				out.Where = append(out.Where, words(c)...)
			}
			return msg
		},
		func(s querySort, desc bool) {
			out.Sort = append(out.Sort, Order{Field: s.field, Desc: desc})
		})
	if err != nil {
		return Query{}, err
	}
	if out.Offset < 0 {
		out.Offset = 0
	}
	return out, nil
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

// view returns what get reads in one read transaction of st.
func view[T any](ctx context.Context, st Store, get func(Tx) (T, error)) (T, error) {
	var out T
	err := st.View(ctx, func(tx Tx) error {
		var err error
		out, err = get(tx)
		return err
	})
	return out, err
}

// ofCompany reads the record id of a kind (get) and returns it when it is
// the caller's company's (companyOf), ENOTFOUND otherwise (inCompany).
func ofCompany[T any](p domain.Principal, kind, id string, get func(id string) (T, error), companyOf func(T) string) (T, error) {
	var zero T
	x, err := get(id)
	if err != nil {
		return zero, err
	}
	if err := inCompany(p, companyOf(x), kind, id); err != nil {
		return zero, err
	}
	return x, nil
}

// listOf answers q, checked against spec, with a page of the caller's
// company's records of one kind (list: Tx.Groups, Tx.Resources) and the
// number that match.
func listOf[T any](ctx context.Context, st Store, p domain.Principal, spec querySpec, q ListQuery, list func(Tx, string, Query) ([]T, int, error)) ([]T, int, error) {
	sq, err := compileQuery(spec, q)
	if err != nil {
		return nil, 0, err
	}
	var out []T
	var total int
	err = st.View(ctx, func(tx Tx) error {
		var err error
		out, total, err = list(tx, p.CompanyID, sq)
		return err
	})
	return out, total, err
}

// The filters and sort fields of the three lists. What more than one list
// takes is declared once, with its names.

var (
	codeFilter        = queryFilter{names: []string{"code"}, parse: containsIn(FieldCode)}
	descriptionFilter = queryFilter{names: []string{"description"}, parse: containsIn(FieldDescription)}
	searchFilter      = queryFilter{names: []string{"search"}, parse: containsIn(FieldCode, FieldDescription)}
	unitFilter        = queryFilter{names: []string{"unit"}, parse: equalFoldCond(FieldUnit, nil)}
	groupFilter       = queryFilter{names: []string{"group"}, parse: sameIDCond(FieldGroup)}
	isSicroFilter     = queryFilter{names: []string{"is_sicro"}, parse: boolCond(FieldIsSicro)}
	tagsFilter        = queryFilter{names: []string{"tags"}, parse: taggedCond}
	createdAfter      = queryFilter{names: []string{"created_after"}, parse: timeCond(AtOrAfter, FieldCreatedAt)}
	createdBefore     = queryFilter{names: []string{"created_before"}, parse: timeCond(Before, FieldCreatedAt)}

	codeSort        = querySort{names: []string{"code"}, field: FieldCode}
	descriptionSort = querySort{names: []string{"description"}, field: FieldDescription}
	unitSort        = querySort{names: []string{"unit"}, field: FieldUnit}
	isSicroSort     = querySort{names: []string{"is_sicro"}, field: FieldIsSicro}
	createdSort     = querySort{names: []string{"created_at"}, field: FieldCreatedAt}
)

var groupList = querySpec{
	filters: []queryFilter{descriptionFilter, createdAfter, createdBefore},
	sorts:   []querySort{descriptionSort, createdSort},
}

var resourceList = querySpec{
	filters: []queryFilter{
		codeFilter, descriptionFilter, searchFilter,
		{names: []string{"resource_type", "type"}, parse: resourceTypeCond},
		unitFilter, groupFilter,
		{names: []string{"state"}, parse: pricedInCond},
		{names: []string{"status"}, parse: boolCond(FieldStatus)},
		isSicroFilter, tagsFilter, createdAfter, createdBefore,
	},
	sorts: []querySort{
		codeSort, descriptionSort,
		{names: []string{"resource_type", "type"}, field: FieldType},
		unitSort,
		{names: []string{"status"}, field: FieldStatus},
		isSicroSort, createdSort,
	},
}

var compositionList = querySpec{
	filters: []queryFilter{
		codeFilter, descriptionFilter, searchFilter,
		{names: []string{"composition_type", "type"}, parse: equalFoldCond(FieldType, compositionClassCode)},
		unitFilter,
		{names: []string{"location", "state"}, parse: equalFoldCond(FieldState, stateCode)},
		groupFilter, isSicroFilter, tagsFilter, createdAfter, createdBefore,
	},
	sorts: []querySort{
		codeSort, descriptionSort,
		{names: []string{"composition_type", "type"}, field: FieldType},
		unitSort,
		{names: []string{"location", "state"}, field: FieldState},
		isSicroSort, createdSort,
	},
}

// Store filters: each turns a filter value into a Cond, or says what is
// wrong with the value.

// containsIn matches when any of the fields contains the value, ignoring
// case and accents ("alvenaria" matches "ALVENARIA", "agua" matches "ÁGUA");
// a value of several words matches when each word is contained, in any
// order (see words).
func containsIn(fields ...Field) func(string, *time.Location) (Cond, string) {
	return func(v string, _ *time.Location) (Cond, string) {
		return Cond{Op: Contains, Fields: fields, Text: v}, ""
	}
}

// words splits a text condition (Contains) at white space into one
// condition per word, so that "bloco alvenaria" finds "ALVENARIA DE BLOCO":
// every word must be contained, in any order, each in any of the fields.
// Other conditions are returned as they are.
func words(c Cond) []Cond {
	if c.Op != Contains {
		return []Cond{c}
	}
	ws := strings.Fields(c.Text)
	if len(ws) <= 1 {
		return []Cond{c}
	}
	out := make([]Cond, len(ws))
	for i, w := range ws {
		out[i] = c
		out[i].Fields = slices.Clone(c.Fields)
		out[i].Text = w
	}
	return out
}

// equalFoldCond matches a field equal to the value, ignoring case; check,
// when set, refuses values that could never match.
func equalFoldCond(f Field, check func(string) string) func(string, *time.Location) (Cond, string) {
	return func(v string, _ *time.Location) (Cond, string) {
		if check != nil {
			if msg := check(v); msg != "" {
				return Cond{}, msg
			}
		}
		return Cond{Op: EqualFold, Fields: []Field{f}, Text: v}, ""
	}
}

func compositionClassCode(v string) string {
	if !domain.ValidCompositionClass(strings.ToUpper(v)) {
		return "is not a composition class (see the composition_classes catalogue)"
	}
	return ""
}

func resourceTypeCond(v string, _ *time.Location) (Cond, string) {
	t, err := strconv.Atoi(v)
	if err != nil || !domain.ValidResourceType(t) {
		return Cond{}, "is not a resource type (see the resource_types catalogue)"
	}
	return Cond{Op: Equal, Fields: []Field{FieldType}, Int: t}, ""
}

// taggedCond matches a record that has the tag (the value as it is, its
// surrounding spaces trimmed: a tag has none).
func taggedCond(v string, _ *time.Location) (Cond, string) {
	if len([]rune(v)) > domain.MaxTagLength {
		return Cond{}, fmt.Sprintf("is longer than a tag (%d characters)", domain.MaxTagLength)
	}
	return Cond{Op: Tagged, Text: v}, ""
}

// pricedInCond matches a resource with a price line in the state.
func pricedInCond(v string, _ *time.Location) (Cond, string) {
	if msg := stateCode(v); msg != "" {
		return Cond{}, msg
	}
	return Cond{Op: PricedIn, Text: strings.ToUpper(v)}, ""
}

// sameIDCond matches the record whose id (a group's) is the value, exactly.
func sameIDCond(f Field) func(string, *time.Location) (Cond, string) {
	return func(v string, _ *time.Location) (Cond, string) {
		return Cond{Op: Equal, Fields: []Field{f}, Text: v}, ""
	}
}

func boolCond(f Field) func(string, *time.Location) (Cond, string) {
	return func(v string, _ *time.Location) (Cond, string) {
		switch v {
		case "true":
			return Cond{Op: Equal, Fields: []Field{f}, Bool: true}, ""
		case "false":
			return Cond{Op: Equal, Fields: []Field{f}, Bool: false}, ""
		}
		return Cond{}, "must be true or false"
	}
}

// timeCond matches records whose time field is at or after (AtOrAfter) or
// strictly before (Before) the instant; a date alone is the start of that
// day in the query's zone, so that created_after=2026-08-01 and
// created_before=2026-09-01 select August.
func timeCond(op Op, f Field) func(string, *time.Location) (Cond, string) {
	return func(v string, zone *time.Location) (Cond, string) {
		t, ok := parseInstant(v, zone)
		if !ok {
			return Cond{}, "must be a date (YYYY-MM-DD) or an RFC 3339 date-time"
		}
		return Cond{Op: op, Fields: []Field{f}, Time: t}, ""
	}
}

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

func byTime[T any](get func(T) time.Time) func(a, b T) int {
	return func(a, b T) int { return get(a).Compare(get(b)) }
}

// fold and naturalCompare are Fold and NaturalCompare, for the lists app
// still filters itself (editions, bank items).
func fold(s string) string { return Fold(s) }

func naturalCompare(a, b string) int { return NaturalCompare(a, b) }
