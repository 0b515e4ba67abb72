package v2

import (
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/google/jsonapi"
)

// Sparse fieldsets (JSON:API 1.1, "Sparse Fieldsets"; docs/jsonapi-clients.md).
//
// Every v2 read takes fields[TYPE]=a,b,c: the resource objects of that
// type (primary data and included records alike) carry only the
// attributes and relationships named; fields[TYPE]= (empty) leaves them
// none. A field the type does not have is 400 naming the parameter; a
// type costdb does not answer (or that this answer has no record of) is
// ignored. The selection is read once per request (fieldsOf) and applied
// where resource objects are written: the member tables (httpapi.Object's
// AppendSelected), the nodes google/jsonapi builds (sparseNodes) and the
// streamed report rows (attrWriter).

// fieldsPrefix starts a sparse fieldset parameter: fields[TYPE].
const fieldsPrefix = "fields["

// fieldSet is the fields asked for one type; nil is every field.
type fieldSet map[string]bool

// keep says whether the field name is written; use it only on a non-nil set.
func (f fieldSet) keep(name string) bool { return f[name] }

// keepFunc is f.keep, or nil (every member) when f is nil.
func (f fieldSet) keepFunc() func(string) bool {
	if f == nil {
		return nil
	}
	return f.keep
}

// fieldSets are the sparse fieldsets of a request, by type.
type fieldSets map[string]fieldSet

// of is the fields asked for type typ (nil: every field).
func (s fieldSets) of(typ string) fieldSet { return s[typ] }

// fieldsType returns TYPE of a fields[TYPE] parameter.
func fieldsType(param string) (string, bool) {
	typ, ok := strings.CutPrefix(param, fieldsPrefix)
	if !ok {
		return "", false
	}
	typ, ok = strings.CutSuffix(typ, "]")
	return typ, ok && typ != ""
}

// isRead says whether r reads (GET or HEAD): only reads take fields.
func isRead(r *http.Request) bool { return r.Method == http.MethodGet || r.Method == http.MethodHead }

// parseFields reads the fields[TYPE] parameters of q. A name TYPE does
// not have (for a type whose fields are known, typeFields) is an error
// for the parameter, every bad name named at once.
func parseFields(q url.Values) (fieldSets, paramErrors) {
	var sets fieldSets
	var errs paramErrors
	for _, k := range sortedKeys(q) {
		typ, ok := fieldsType(k)
		if !ok || len(q[k]) > 1 { // given twice: query refuses it
			continue
		}
		set := fieldSet{}
		var bad []string
		known, checked := typeFields[typ]
		for _, f := range strings.Split(q[k][0], ",") {
			f = strings.TrimSpace(f)
			switch {
			case f == "" && q[k][0] != "":
				errs = append(errs, &paramError{Param: k, Message: "must name fields separated by commas (or be empty for none)"})
			case f == "":
			case checked && !contains(known, f):
				if !contains(bad, f) {
					bad = append(bad, f)
				}
			default:
				set[f] = true
			}
		}
		if len(bad) > 0 {
			errs = append(errs, &paramError{Param: k, Message: "names no field of " + typ + ": " + strings.Join(bad, ", ") +
				" (its fields are " + strings.Join(known, ", ") + ")"})
		}
		if sets == nil {
			sets = fieldSets{}
		}
		sets[typ] = set
	}
	return sets, errs
}

// fieldsOf is the sparse fieldsets of r, a read whose query was checked
// by query; nil when it asks for none (or r is not a read).
func fieldsOf(r *http.Request) fieldSets {
	if !isRead(r) || !strings.Contains(r.URL.RawQuery, "fields") {
		return nil
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil
	}
	sets, _ := parseFields(q)
	return sets
}

// sparseNodes leaves out of each node the attributes and relationships
// its type's fieldset does not name.
func sparseNodes(sets fieldSets, nodes ...*jsonapi.Node) {
	if sets == nil {
		return
	}
	for _, n := range nodes {
		if n == nil || sets.of(n.Type) == nil {
			continue
		}
		set := sets.of(n.Type)
		for k := range n.Attributes {
			if !set[k] {
				delete(n.Attributes, k)
			}
		}
		for k := range n.Relationships {
			if !set[k] {
				delete(n.Relationships, k)
			}
		}
	}
}

// attrWriter writes the attributes of a streamed resource object, leaving
// out those its fieldset does not name.
type attrWriter struct {
	j   *httpapi.JSONWriter
	set fieldSet
	n   int
}

// key writes the member name of the attribute name (after a comma when
// one was written) and says whether it did: the caller then writes the
// value.
func (a *attrWriter) key(name string) bool {
	if a.set != nil && !a.set[name] {
		return false
	}
	if a.n > 0 {
		a.j.Raw(`,"`)
	} else {
		a.j.Raw(`"`)
	}
	a.n++
	a.j.Raw(name)
	a.j.Raw(`":`)
	return true
}

// typeFields are the fields (attributes and relationships) of each type
// v2 answers with a fixed set: the member tables', the struct tags of the
// records google/jsonapi writes, and the records built by hand. A type not
// here (an enumeration's entries, whose type is the catalogue's name) takes
// fields unchecked.
var typeFields = func() map[string][]string {
	m := map[string][]string{
		"compositions": append(compositionAttributes.Names(), groupedRels...),
		"resources":    append(resourceAttributes.Names(), groupedRels...),
		banksType: {"name", "location", "version", "region", "regimes", "resources", "compositions", "structures",
			"source", "imported_at", "items"},
		bankItemsType: {"kind", "code", "description", "unit", "resource_type", "composition_type", "prices",
			"structure_items", "structure", "bank"},
		enumsType: {"name", "description", "count"},
		"analytic-rows": {"bank", "base_version", "code", "depth", "description", "items", "kind", "missing",
			"node_id", "number", "quantity", "total", "total_with_bdi", "unit", "unit_price", "unit_price_with_bdi",
			"unit_summary", "weight"},
		"abc-rows": {"bank", "base_version", "category", "class", "code", "cumulative_percent", "description",
			"idle", "kind", "missing", "percent", "position", "quantity", "resource_type", "total", "unit", "unit_price"},
		"abc-service-rows": {"bank", "base_version", "class", "code", "cumulative_percent", "description",
			"kind", "missing", "percent", "position", "quantity", "total_with_bdi", "unit", "unit_price_with_bdi"},
	}
	for _, model := range []any{
		userDoc{}, sectorDoc{}, groupDoc{}, budgetDoc{}, budgetNodeDoc{}, bdiDoc{}, historyDoc{},
		repriceLineDoc{}, versionDoc{}, syntheticRowDoc{}, exportDoc{}, importDoc{}, accessToken{}, profileDoc{},
		bankChangeDoc{}, bankChangeUseDoc{},
	} {
		typ, fields := taggedFields(reflect.TypeOf(model))
		m[typ] = fields
	}
	for typ := range m {
		slices.Sort(m[typ])
		m[typ] = slices.Compact(m[typ])
	}
	return m
}()

// taggedFields reads the JSON:API type and the attribute and relationship
// names of a google/jsonapi model's struct tags.
func taggedFields(t reflect.Type) (typ string, fields []string) {
	for i := range t.NumField() {
		tag := strings.Split(t.Field(i).Tag.Get("jsonapi"), ",")
		if len(tag) < 2 {
			continue
		}
		switch tag[0] {
		case "primary":
			typ = tag[1]
		case "attr", "relation":
			fields = append(fields, tag[1])
		}
	}
	return typ, fields
}
