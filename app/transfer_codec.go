package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Format versions of a company export (docs/budgets.md, "Export and
// import"): version 1 names every member as the Go types do ("GroupID"),
// version 2, written since, in snake_case like every other document
// ("group_id"). Both are read.
const (
	CompanyExportV1 = 1
	CompanyExportV2 = 2
)

// CompanyExportAttributes returns the export as the JSON object of format
// version v (CompanyExportV1 or CompanyExportV2), members in that version's
// names, decimals as exact strings, times in RFC 3339.
func CompanyExportAttributes(e *CompanyExport, v int) (map[string]any, error) {
	c := *e
	c.Version = v
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	var tree any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	if v == CompanyExportV2 {
		var w exportWalk
		tree = w.walk(reflect.TypeFor[CompanyExport](), tree, "")
		if err := w.err(); err != nil {
			return nil, err
		}
	}
	return tree.(map[string]any), nil
}

// DecodeCompanyExport reads the attributes of an export of format version
// 1 or 2 (its "Version", or "version" in version 2). Every problem is
// named by its pointer in the document, in that version's names, all at
// once: a member the format does not have is EBADREQUEST (as in every
// other body), a value of the wrong type or a version this server does not
// read is EINVALID; never the decoder's own text.
func DecodeCompanyExport(body []byte) (*CompanyExport, error) {
	var tree any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil {
		return nil, domain.Errorf(domain.EBADREQUEST, "the export document is not JSON")
	}
	top, ok := tree.(map[string]any)
	if !ok {
		return nil, domain.FieldErrorf("/", "must be an object")
	}
	w := exportWalk{read: true}
	switch {
	case top["Version"] != nil:
		if n, ok := top["Version"].(json.Number); !ok || n.String() != "1" {
			return nil, domain.FieldErrorf("/Version", "must be 1: members named as in Go (Format, Version…) are version 1; version 2 names them in snake_case")
		}
	case top["version"] != nil:
		if n, ok := top["version"].(json.Number); !ok || n.String() != "2" {
			return nil, domain.FieldErrorf("/version", "must be 2: members named in snake_case are version 2; this server reads versions 1 and 2")
		}
		w.snake = true
	default:
		return nil, domain.FieldErrorf("/version", "is required: 2 (or \"Version\": 1 for the first version of the format)")
	}
	goTree := w.walk(reflect.TypeFor[CompanyExport](), tree, "")
	if err := w.err(); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(goTree)
	if err != nil {
		return nil, err
	}
	var out CompanyExport
	if err := json.Unmarshal(raw, &out); err != nil {
		// The walk checked every value against its type: this is a bug.
		return nil, domain.Errorf(domain.EINVALID, "the export document could not be read")
	}
	return &out, nil
}

// snakeName is a Go field name in snake_case: "GroupID" → "group_id",
// "BDIParts" → "bdi_parts", "IsSicro" → "is_sicro".
func snakeName(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) {
			if i > 0 && (unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1]) ||
				(i+1 < len(r) && unicode.IsUpper(r[i-1]) && unicode.IsLower(r[i+1]))) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(c))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// snakePointer rewrites the Go names of a version-1 pointer
// ("/Resources/3/GroupID") to version 2's ("/resources/3/group_id"); other
// segments (indexes, map keys such as a state "MG", names already in
// snake_case) stay.
func snakePointer(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if goNames[s] {
			parts[i] = snakeName(s)
		}
	}
	return strings.Join(parts, "/")
}

// goNames are the Go member names of every struct of the export format.
var goNames = func() map[string]bool {
	names := map[string]bool{}
	var visit func(t reflect.Type)
	seen := map[reflect.Type]bool{}
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t == timeType || t == decimalType {
			return
		}
		seen[t] = true
		for _, f := range fields(t) {
			names[f.goName] = true
			visit(f.typ)
		}
	}
	visit(reflect.TypeFor[CompanyExport]())
	return names
}()

// exportWalk walks a decoded JSON tree beside the Go type it is for,
// renaming struct members (Go names ↔ snake_case; map keys are data and
// stay) and, when reading, checking every value against its type.
type exportWalk struct {
	read    bool // reading: check types; member names are snake if snake
	snake   bool
	unknown domain.Validation
	invalid domain.Validation
}

func (w *exportWalk) err() error {
	if w.invalid.Len() > 0 {
		for _, f := range w.unknown.Fields {
			w.invalid.AddField(f)
		}
		return w.invalid.Err()
	}
	if w.unknown.Len() > 0 {
		e := w.unknown.Err().(*domain.Error)
		e.Code = domain.EBADREQUEST
		return e
	}
	return nil
}

type exportField struct {
	goName, name string
	typ          reflect.Type
}

// fields lists the JSON members of struct type t as encoding/json writes
// them (embedded structs flattened, "-" skipped).
func fields(t reflect.Type) []exportField {
	var out []exportField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && tag == "" {
			out = append(out, fields(f.Type)...)
			continue
		}
		name := f.Name
		if n, _, _ := strings.Cut(tag, ","); n != "" {
			name = n
		}
		out = append(out, exportField{goName: name, name: snakeName(name), typ: f.Type})
	}
	return out
}

var (
	timeType    = reflect.TypeFor[time.Time]()
	decimalType = reflect.TypeFor[decimal.Decimal]()
	unmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

func (w *exportWalk) walk(t reflect.Type, v any, ptr string) any {
	if v == nil {
		return nil // null: the zero value, as encoding/json reads it
	}
	bad := func(msg string) any {
		w.invalid.Add(ptr, "%s", msg)
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshaler) {
		if !w.read {
			return v // a value with its own JSON (a time, a decimal)
		}
		raw, _ := json.Marshal(v)
		if err := reflect.New(t).Interface().(json.Unmarshaler).UnmarshalJSON(raw); err != nil {
			switch t {
			case timeType:
				return bad("must be a time in RFC 3339 (2026-01-31T12:00:00Z)")
			case decimalType:
				return bad("must be a decimal number")
			default:
				return bad("is not a valid value")
			}
		}
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		return w.walk(t.Elem(), v, ptr)
	case reflect.Interface:
		return v
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return bad("must be an object")
		}
		fs := fields(t)
		out := make(map[string]any, len(m))
		for k, x := range m {
			var f *exportField
			for i := range fs {
				if (w.read && w.snake && fs[i].name == k) || (w.read && !w.snake && fs[i].goName == k) || (!w.read && fs[i].goName == k) {
					f = &fs[i]
				}
			}
			if f == nil {
				if w.read {
					w.unknown.Add(ptr+"/"+escape(k), "is not a member of version %d of the export format", map[bool]int{false: 1, true: 2}[w.snake])
				} else {
					out[k] = x // written by a type's own JSON: kept as it is
				}
				continue
			}
			name := f.goName
			if !w.read {
				name = f.name
			}
			out[name] = w.walk(f.typ, x, ptr+"/"+escape(k))
		}
		return out
	case reflect.Slice, reflect.Array:
		a, ok := v.([]any)
		if !ok {
			return bad("must be an array")
		}
		out := make([]any, len(a))
		for i, x := range a {
			out[i] = w.walk(t.Elem(), x, ptr+"/"+strconv.Itoa(i))
		}
		return out
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return bad("must be an object")
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[k] = w.walk(t.Elem(), x, ptr+"/"+escape(k))
		}
		return out
	case reflect.String:
		if _, ok := v.(string); !ok {
			return bad("must be a string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return bad("must be true or false")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return bad("must be an integer")
		}
		if _, err := strconv.ParseInt(n.String(), 10, t.Bits()); err != nil {
			return bad(fmt.Sprintf("must be an integer of at most %d bits", t.Bits()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return bad("must be a whole number")
		}
		if _, err := strconv.ParseUint(n.String(), 10, t.Bits()); err != nil {
			return bad("must be a whole number in range")
		}
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return bad("must be a number")
		}
		if _, err := strconv.ParseFloat(n.String(), t.Bits()); err != nil {
			return bad("must be a number in range")
		}
	}
	return v
}

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
