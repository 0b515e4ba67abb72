package httpapi

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Numbers in request bodies. Both generations read every numeric member
// with ParseNumber: the value must be a finite decimal within the bounds of
// domain.NumberBoundsProblem and not negative (no number costdb reads has a
// meaning below zero). v2 is strict (JSON numbers only); v1 is lenient and
// also takes numeric text in a JSON string ("2.5"), as the API it mirrors
// does and its real clients send. Anything else answers 422 with the
// member's pointer, never 400, and never stops the decoding of the rest of
// the body: the problems are gathered (NumberErrors) and reported together
// with the use case's own validation errors (app.Service.Rejecting).

// MustBeNumber is the message for a value that is not a number.
const MustBeNumber = "must be a number"

// numericText is the text v1 takes as a number inside a JSON string: JSON's
// number grammar, leading zeros allowed. "2,5", "NaN", "Infinity", "0x10",
// "1_000" and "" are not numbers.
var numericText = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// ParseNumber reads one JSON value that must be a number: a JSON number,
// or, when lenient, a JSON string holding numeric text. It returns the
// value, or a problem ("" when none) to report on the member.
func ParseNumber(raw []byte, lenient bool) (decimal.Decimal, string) {
	raw = bytes.TrimSpace(raw)
	text := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if !lenient {
			return decimal.Zero, MustBeNumber
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return decimal.Zero, MustBeNumber
		}
		text = strings.TrimSpace(s)
	}
	if !numericText.MatchString(text) {
		return decimal.Zero, MustBeNumber
	}
	if p := textBounds(text); p != "" {
		return decimal.Zero, p
	}
	d, err := decimal.NewFromString(text)
	if err != nil {
		if strings.Trim(strings.SplitN(strings.ToLower(text), "e", 2)[0], "-0.") == "" {
			return decimal.Zero, "" // zero with an exponent out of decimal's range
		}
		return decimal.Zero, MustBeNumber
	}
	return d, ""
}

// textBounds checks numeric text against the bounds before it becomes a
// decimal, so that 1e999999999 costs nothing: it counts the significant
// digits on each side of the point from the text itself.
func textBounds(text string) string {
	neg := strings.HasPrefix(text, "-")
	s := strings.ToLower(strings.TrimPrefix(text, "-"))
	mant, expText, _ := strings.Cut(s, "e")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	point := len(intPart)
	for len(digits) > 0 && digits[0] == '0' {
		digits, point = digits[1:], point-1
	}
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return "" // zero, whatever its exponent or sign
	}
	if neg {
		return "must not be negative"
	}
	exp, err := strconv.Atoi(expText)
	const far = 1 << 20
	if expText == "" {
		exp = 0
	} else if err != nil || exp > far || exp < -far {
		exp = far
		if strings.HasPrefix(expText, "-") {
			exp = -far
		}
	}
	point += exp
	intDigits, fracDigits := max(point, 0), max(len(digits)-point, 0)
	switch {
	case intDigits > domain.MaxIntegerDigits:
		return "must have at most " + strconv.Itoa(domain.MaxIntegerDigits) + " digits before the decimal point"
	case fracDigits > domain.MaxDecimalPlaces:
		return "must have at most " + strconv.Itoa(domain.MaxDecimalPlaces) + " decimal places"
	}
	return ""
}

// Number is a numeric member of a request body, read by ParseNumber. Set
// tells a value from an absent member or null; Problem is what was wrong
// with the value (then D is zero and Set false). Decoding never fails.
type Number struct {
	D       decimal.Decimal
	Set     bool
	Problem string
}

func (n *Number) decode(b []byte, lenient bool) {
	if string(bytes.TrimSpace(b)) == "null" {
		*n = Number{}
		return
	}
	d, p := ParseNumber(b, lenient)
	*n = Number{D: d, Set: p == "", Problem: p}
}

// Ptr returns the number as a patch field: nil when absent, null or bad.
func (n Number) Ptr() *decimal.Decimal {
	if !n.Set {
		return nil
	}
	return &n.D
}

// NumberProblem implements the interface NumberErrors looks for.
func (n Number) NumberProblem() string { return n.Problem }

// StrictNumber is a Number that must be a JSON number (v2).
type StrictNumber struct{ Number }

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (n *StrictNumber) UnmarshalJSON(b []byte) error { n.decode(b, false); return nil }

// LenientNumber is a Number that may also be numeric text (v1).
type LenientNumber struct{ Number }

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (n *LenientNumber) UnmarshalJSON(b []byte) error { n.decode(b, true); return nil }

// numberProblem is a decoded number that may carry a problem.
type numberProblem interface{ NumberProblem() string }

// NumberErrorer is a type that names its own number problems, for shapes
// NumberErrors cannot walk by itself (a member that is a number or an
// object).
type NumberErrorer interface {
	NumberErrors(ptr string) []domain.FieldError
}

// NumberErrors walks a decoded request value and returns the problem of
// every Number in it, each named by a JSON pointer from ptr built of the
// json names of struct fields (embedded structs add no segment), slice
// indexes and map keys.
func NumberErrors(v any, ptr string) []domain.FieldError {
	var out []domain.FieldError
	walkNumbers(reflect.ValueOf(v), ptr, &out)
	return out
}

var (
	numberProblemType = reflect.TypeOf((*numberProblem)(nil)).Elem()
	numberErrorerType = reflect.TypeOf((*NumberErrorer)(nil)).Elem()
)

func walkNumbers(v reflect.Value, ptr string, out *[]domain.FieldError) {
	if !v.IsValid() {
		return
	}
	t := v.Type()
	if t.Implements(numberErrorerType) && (t.Kind() != reflect.Pointer || !v.IsNil()) {
		*out = append(*out, v.Interface().(NumberErrorer).NumberErrors(ptr)...)
		return
	}
	if t.Implements(numberProblemType) && (t.Kind() != reflect.Pointer || !v.IsNil()) {
		if p := v.Interface().(numberProblem).NumberProblem(); p != "" {
			*out = append(*out, domain.FieldError{Field: ptr, Message: p})
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkNumbers(v.Elem(), ptr, out)
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				if f.Anonymous && holdsNumbers(f.Type, map[reflect.Type]bool{}) {
					// Its numbers cannot be read through reflection, and
					// skipping them would let a bad one pass as zero.
					panic("httpapi.NumberErrors: " + t.String() + " embeds the unexported " + f.Type.String() +
						", which holds numbers: give " + t.String() + " a NumberErrors method")
				}
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-":
				continue
			case f.Anonymous && name == "":
				walkNumbers(v.Field(i), ptr, out)
				continue
			case name == "":
				name = f.Name
			}
			walkNumbers(v.Field(i), ptr+"/"+escapePointer(name), out)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walkNumbers(v.Index(i), ptr+"/"+strconv.Itoa(i), out)
		}
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return
		}
		keys := v.MapKeys()
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = k.String()
		}
		idx := make(map[string]reflect.Value, len(keys))
		for _, k := range keys {
			idx[k.String()] = v.MapIndex(k)
		}
		sort.Strings(names)
		for _, k := range names {
			walkNumbers(idx[k], ptr+"/"+escapePointer(k), out)
		}
	}
}

// holdsNumbers reports whether a value of type t may hold a decoded number.
func holdsNumbers(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	if t.Implements(numberProblemType) || t.Implements(numberErrorerType) {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return holdsNumbers(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsNumbers(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

// pointerEscaper escapes a JSON Pointer token (RFC 6901); built once, it
// is safe for concurrent use (building it was a tenth of a write's
// request decoding).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return pointerEscaper.Replace(s)
}

// RejectNumbers returns the Service to run the request whose decoded body
// v (named from ptr) may hold number problems: its use cases report them
// with their own validation errors and write nothing (app.Service.Rejecting).
func (e *Env) RejectNumbers(v any, ptr string) *app.Service {
	return e.App.Rejecting(NumberErrors(v, ptr))
}

// AnswerNumbersProblem scans a JSON answer for a number token with more
// than domain.MaxIntegerDigits digits before the point or more than
// domain.MaxDecimalPlaces after it, and says what is wrong ("" when every
// number is within the bounds). Writes that would make a record's computed
// figures exceed the bounds are refused; this is the last guard for a
// record pushed over by a later change of something it uses (a resource's
// price, a nested composition), whose answer must not carry the number.
func AnswerNumbersProblem(body []byte) string {
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '"':
			for i++; i < len(body) && body[i] != '"'; i++ {
				if body[i] == '\\' {
					i++
				}
			}
		case c == '-' || (c >= '0' && c <= '9'):
			j := i
			for j < len(body) && isNumberByte(body[j]) {
				j++
			}
			if p := tokenBounds(body[i:j]); p != "" {
				return figureProblem(p)
			}
			i = j - 1
		}
	}
	return ""
}

// figureProblem is the answer's problem for a figure whose text has the
// problem p (textBounds).
func figureProblem(p string) string {
	return "a computed figure of the record " + p + ": lower a quantity or a price it uses"
}

// tokenBounds is textBounds of a number token of an answer, its sign
// ignored (a computed figure may be negative): for the plain decimals
// answers hold (-?digits, then .digits) it counts the digits in place,
// without allocating; any other token goes through textBounds.
func tokenBounds(tok []byte) string {
	if len(tok) > 0 && tok[0] == '-' {
		tok = tok[1:]
	}
	point := len(tok)
	for i, c := range tok {
		switch {
		case c == '.' && point == len(tok) && i > 0:
			point = i
		case c < '0' || c > '9':
			return textBounds(string(tok))
		}
	}
	intPart, frac := tok[:point], tok[min(point+1, len(tok)):]
	for len(intPart) > 0 && intPart[0] == '0' {
		intPart = intPart[1:]
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	switch {
	case len(intPart) == 0 && len(frac) == 0:
		return "" // zero
	case len(intPart) > domain.MaxIntegerDigits:
		return "must have at most " + strconv.Itoa(domain.MaxIntegerDigits) + " digits before the decimal point"
	case len(frac) > domain.MaxDecimalPlaces:
		return "must have at most " + strconv.Itoa(domain.MaxDecimalPlaces) + " decimal places"
	}
	return ""
}

func isNumberByte(c byte) bool {
	return c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || (c >= '0' && c <= '9')
}

var decimalType = reflect.TypeOf(decimal.Decimal{})

// FiguresProblem walks a computed value (a report, for an answer that is
// not JSON: CSV, SVG) and says what is wrong when a decimal in it has more
// than domain.MaxIntegerDigits digits before the point ("" when none): the
// guard AnswerNumbersProblem is for JSON answers.
func FiguresProblem(v any) string {
	seen := map[uintptr]bool{}
	var walk func(reflect.Value) bool
	walk = func(v reflect.Value) bool {
		if !v.IsValid() {
			return false
		}
		if v.Type() == decimalType {
			d := v.Interface().(decimal.Decimal)
			return d.Abs().GreaterThanOrEqual(maxFigure)
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return false
			}
			seen[v.Pointer()] = true
			return walk(v.Elem())
		case reflect.Interface:
			return !v.IsNil() && walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() && walk(v.Field(i)) {
					return true
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				if walk(v.Index(i)) {
					return true
				}
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				if walk(it.Value()) {
					return true
				}
			}
		}
		return false
	}
	if walk(reflect.ValueOf(v)) {
		return "a computed figure of the record must have at most " + strconv.Itoa(domain.MaxIntegerDigits) +
			" digits before the decimal point: lower a quantity or a price it uses"
	}
	return ""
}

// maxFigure is the smallest number with too many integer digits.
var maxFigure = decimal.New(1, domain.MaxIntegerDigits)

// MustBeWholeNumber is the message for a number with a fraction where a
// whole number (a catalogue code, a method) is expected.
const MustBeWholeNumber = "must be a whole number"

// Integer is a whole-number member of a request body (a resource type, a
// calculation method), read by ParseNumber as every number is and then
// required to be whole. Set and Problem are as for Number.
type Integer struct {
	N       int
	Set     bool
	Problem string
}

func (n *Integer) decode(b []byte, lenient bool) {
	if string(bytes.TrimSpace(b)) == "null" {
		*n = Integer{}
		return
	}
	d, p := ParseNumber(b, lenient)
	if p == "" && !d.IsInteger() {
		p = MustBeWholeNumber
	}
	if p != "" {
		*n = Integer{Problem: p}
		return
	}
	*n = Integer{N: int(d.IntPart()), Set: true}
}

// Ptr returns the integer as a patch field: nil when absent, null or bad.
func (n Integer) Ptr() *int {
	if !n.Set {
		return nil
	}
	return &n.N
}

// NumberProblem implements the interface NumberErrors looks for.
func (n Integer) NumberProblem() string { return n.Problem }

// StrictInteger is an Integer that must be a JSON number (v2).
type StrictInteger struct{ Integer }

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (n *StrictInteger) UnmarshalJSON(b []byte) error { n.decode(b, false); return nil }

// LenientInteger is an Integer that may also be numeric text (v1).
type LenientInteger struct{ Integer }

// UnmarshalJSON implements json.Unmarshaler; it never fails.
func (n *LenientInteger) UnmarshalJSON(b []byte) error { n.decode(b, true); return nil }
