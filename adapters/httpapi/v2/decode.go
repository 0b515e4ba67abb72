package v2

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// attr is one attribute a create or update body may carry.
type attr struct {
	// app is the field's name in the app's error pointers ("state").
	app string
	// names are the names a request may use for it; the first is the one v2
	// writes ("location"). Later names are aliases ("type" for
	// "composition_type", the seed's name that JSON:API forbids).
	names []string
	// kind is the JSON type expected, for the message of a type error.
	kind string
}

// attrBody is the body of a create or update request: its attributes, read
// either from a plain JSON object (the seed's style) or from a JSON:API
// document's data.attributes, remembering where each one was so that error
// pointers point into the document the client sent.
type attrBody struct {
	doc   bool // a JSON:API document
	attrs map[string]json.RawMessage
	rels  map[string]json.RawMessage
	used  map[string]bool
	// ptrs maps an app field name to the pointer of what the client sent
	// for it, when that differs from the default.
	ptrs map[string]string
	// names maps an app field name to its v2 name, for fields the client
	// did not send.
	names map[string]string
	bad   domain.Validation // wrong JSON types (400)
	wrong domain.Validation // unknown or contradictory members (422)
	// rejected are the bad numbers (422), named by app field pointers
	// ("/adc_labor", "/items/0/quantity"): the use case lists them with
	// its own field errors (app.Service.Rejecting).
	rejected []domain.FieldError
}

// number is a numeric member of a v2 body: a JSON number only (a quoted
// number is 422 "must be a number"), within the bounds (httpapi.ParseNumber).
type number = httpapi.StrictNumber

// readNumber reads the numeric attribute a: nil when absent or bad (a bad
// one is kept in rejected), zero when null, as read does.
func readNumber(b *attrBody, a attr) *decimal.Decimal {
	n := read[number](b, a)
	if n == nil {
		return nil
	}
	if n.Problem != "" {
		b.rejected = append(b.rejected, httpapi.NumberErrors(*n, "/"+a.app)...)
		return nil
	}
	return &n.D
}

// readWhole reads the whole-number attribute a (a resource type, a
// calculation method) as numbers are read: nil when absent or bad (a bad
// one is kept in rejected), zero when null.
func readWhole[T ~int](b *attrBody, a attr) *T {
	n := read[httpapi.StrictInteger](b, a)
	if n == nil {
		return nil
	}
	if n.Problem != "" {
		b.rejected = append(b.rejected, httpapi.NumberErrors(*n, "/"+a.app)...)
		return nil
	}
	v := T(n.N)
	return &v
}

// readNumbers reads the attribute a into a new T, keeping the problems of
// the numbers inside it.
func readNumbers[T any](b *attrBody, a attr) *T {
	v := read[T](b, a)
	if v != nil {
		b.rejected = append(b.rejected, httpapi.NumberErrors(*v, "/"+a.app)...)
	}
	return v
}

// resourceObject is the primary data of a JSON:API request document.
type resourceObject struct {
	Type          *string                    `json:"type"`
	ID            *string                    `json:"id"`
	Attributes    map[string]json.RawMessage `json:"attributes"`
	Relationships map[string]json.RawMessage `json:"relationships"`
}

// decodeAttrs reads a create (id "") or update body for a record of the
// JSON:API type typ. A JSON:API document must name typ (else 409), must not
// name an id on create (403, costdb makes ids) and, on update, may name only
// the id of the URL (else 409).
func decodeAttrs(r *http.Request, typ, id string) (*attrBody, error) {
	var top map[string]json.RawMessage
	if err := httpapi.DecodeJSON(r, &top); err != nil {
		return nil, err
	}
	b := &attrBody{attrs: top, used: map[string]bool{}, ptrs: map[string]string{}, names: map[string]string{}}
	data, ok := top["data"]
	if !ok {
		return b, nil
	}
	b.doc = true
	var ro resourceObject
	if err := json.Unmarshal(data, &ro); err != nil || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, fieldError(domain.EBADREQUEST, "/data", "must be a resource object with type and attributes")
	}
	switch {
	case ro.Type == nil:
		return nil, fieldError(domain.EBADREQUEST, "/data/type", "is required in a JSON:API document")
	case *ro.Type != typ:
		return nil, fieldError(domain.ECONFLICT, "/data/type", "must be "+typ)
	case ro.ID != nil && id == "":
		return nil, fieldError(eForbidden, "/data/id", "must not be given: costdb makes the ids")
	case ro.ID != nil && *ro.ID != id:
		return nil, fieldError(domain.ECONFLICT, "/data/id", "must be the id of the URL, "+id)
	}
	b.attrs, b.rels = ro.Attributes, ro.Relationships
	if b.attrs == nil {
		b.attrs = map[string]json.RawMessage{}
	}
	return b, nil
}

// readAttrs is decodeAttrs for a request that takes no query parameter
// (query): nil when it answered the error.
func (h *handlers) readAttrs(w http.ResponseWriter, r *http.Request, typ, id string) *attrBody {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return nil
	}
	b, err := decodeAttrs(r, typ, id)
	if err != nil {
		h.writeError(w, r, err)
		return nil
	}
	return b
}

// readPatch reads a create (id "") or update body for a record of the
// JSON:API type typ (readAttrs), its attributes with attrs, then what is
// wrong with the body itself (finish, readOnly ignored). ok false: the error
// is answered.
func readPatch[T any](h *handlers, w http.ResponseWriter, r *http.Request, typ, id string, attrs func(*attrBody) T, readOnly ...string) (*attrBody, T, bool) {
	var zero T
	b := h.readAttrs(w, r, typ, id)
	if b == nil {
		return nil, zero, false
	}
	pt := attrs(b)
	if err := b.finish(readOnly...); err != nil {
		h.writeError(w, r, err)
		return nil, zero, false
	}
	return b, pt, true
}

// readBody reads the plain JSON body of a request that takes no query
// parameter (query) into v: with known members named, as decodeMembers
// (every other member is 422), else as httpapi.DecodeJSON. false when it
// answered the error.
func (h *handlers) readBody(w http.ResponseWriter, r *http.Request, v any, known ...string) bool {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return false
	}
	decode := httpapi.DecodeJSON
	if len(known) > 0 {
		decode = func(r *http.Request, v any) error { return decodeMembers(r, v, known...) }
	}
	if err := decode(r, v); err != nil {
		h.writeError(w, r, err)
		return false
	}
	return true
}

// fieldError is an error of the code about one member of the request.
func fieldError(code, ptr, msg string) error {
	return &domain.Error{Code: code, Message: msg, Fields: []domain.FieldError{{Field: ptr, Message: msg}}}
}

// attrPointer is the pointer of an attribute in the request document.
func (b *attrBody) attrPointer(name string) string {
	if b.doc {
		return "/data/attributes/" + name
	}
	return "/" + name
}

// read decodes the attribute a into a new T: nil when the body does not
// carry it, the zero value when it carries null.
func read[T any](b *attrBody, a attr) *T {
	b.names[a.app] = a.names[0]
	var found string
	for _, n := range a.names {
		if _, ok := b.attrs[n]; !ok {
			continue
		}
		b.used[n] = true
		if found != "" {
			// Two names of one attribute (a document read and sent back
			// carries both): fine when they agree.
			if !sameValue[T](b.attrs[found], b.attrs[n]) {
				b.wrong.Add(b.attrPointer(found), disagree, found, n)
				b.wrong.Add(b.attrPointer(n), disagree, found, n)
				return nil
			}
			continue
		}
		found = n
	}
	if found == "" {
		return nil
	}
	ptr := b.attrPointer(found)
	b.ptrs[a.app] = ptr
	var v T
	if err := json.Unmarshal(b.attrs[found], &v); err != nil {
		b.bad.Add(ptr, "must be a JSON %s", a.kind)
		return nil
	}
	return &v
}

// disagree is the message of two names of one attribute sent with
// different values.
const disagree = "%s and %s are two names of one attribute and disagree: give one of them, or both with the same value"

// sameValue reports whether two JSON values decode to the same T (numbers
// by value: 2 and 2.0 agree).
func sameValue[T any](a, b json.RawMessage) bool {
	var x, y T
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	if dx, ok := any(x).(decimal.Decimal); ok {
		return dx.Equal(any(y).(decimal.Decimal))
	}
	return reflect.DeepEqual(x, y)
}

// readGroup reads the group a record belongs to: the attribute group_id, or
// in a JSON:API document the to-one relationship `group` (data null clears
// it). nil when the body names no group.
func readGroup(b *attrBody) *string {
	g := read[string](b, attr{app: "group_id", names: []string{"group_id"}, kind: "string"})
	raw, ok := b.rels["group"]
	if !ok {
		return g
	}
	ptr := "/data/relationships/group"
	var rel struct {
		Data *struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &rel); err != nil {
		b.bad.Add(ptr, "must be a to-one relationship: {\"data\": {\"type\": \"groups\", \"id\": …}} or {\"data\": null}")
		return nil
	}
	id := ""
	if rel.Data != nil {
		if rel.Data.Type != "groups" {
			b.wrong.Add(ptr+"/data/type", "must be groups")
			return nil
		}
		id = rel.Data.ID
	}
	if g != nil {
		// group_id and the relationship name the group twice: fine when
		// they agree.
		if *g != id {
			b.wrong.Add(b.attrPointer("group_id"), disagree, "group_id", "the group relationship")
			b.wrong.Add(ptr, disagree, "group_id", "the group relationship")
			return nil
		}
		return g
	}
	b.ptrs["group_id"] = ptr
	return &id
}

// finish reports what was wrong with the body itself: members of the wrong
// JSON type (400), then unknown attributes or relationships (422). Members
// in readOnly (what v2 writes but never reads, such as created_at) are
// ignored, so that a client may send back a document it was given.
func (b *attrBody) finish(readOnly ...string) error {
	if len(b.bad.Fields) > 0 {
		// One answer lists every bad member: the bad numbers too.
		for _, f := range b.rejected {
			b.bad.Add(b.pointers(f.Field), "%s", f.Message)
		}
	}
	if err := b.bad.Err(); err != nil {
		e := err.(*domain.Error)
		e.Code, e.Message = domain.EBADREQUEST, "the request body has members of the wrong JSON type"
		return e
	}
	ro := map[string]bool{"id": !b.doc}
	for _, n := range readOnly {
		ro[n] = true
	}
	for _, n := range sortedKeys(b.attrs) {
		if !b.used[n] && !ro[n] {
			b.wrong.Add(b.attrPointer(n), "is not an attribute costdb knows")
		}
	}
	for _, n := range sortedKeys(b.rels) {
		if n != "group" && n != "user" && n != "sector" {
			b.wrong.Add("/data/relationships/"+n, "is not a relationship costdb knows")
		}
	}
	if len(b.wrong.Fields) > 0 {
		for _, f := range b.rejected {
			b.wrong.Add(b.pointers(f.Field), "%s", f.Message)
		}
	}
	return b.wrong.Err()
}

// pointers maps the app's field pointers to the request document.
func (b *attrBody) pointers(p string) string {
	if p == "" {
		return "" // the record as a whole
	}
	field, rest := p, ""
	if i := strings.IndexByte(p[min(1, len(p)):], '/'); i >= 0 {
		field, rest = p[:i+1], p[i+1:]
	}
	name := strings.TrimPrefix(field, "/")
	if ptr, ok := b.ptrs[name]; ok {
		return ptr + rest
	}
	if v2, ok := b.names[name]; ok {
		name = v2
	}
	return b.attrPointer(name) + rest
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
