package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Answers written without reflection (issue 11: the records read most, a
// composition and its items, a resource, their lists). An Encoder appends
// JSON to a pooled buffer, byte for byte as encoding/json with
// SetEscapeHTML(false) writes the same values (the answers' tests compare
// both on many documents), and checks every number it writes against the
// bounds as it goes: the guard AnswerNumbersProblem applies to the bytes of
// the answers still encoded by reflection.

// JSONAppender is an answer that writes its own JSON with an Encoder.
// WriteJSON writes it without encoding/json.
type JSONAppender interface {
	AppendJSON(e *Encoder)
}

// Encoder appends JSON to a buffer and remembers the first number written
// that is out of the bounds (Problem).
type Encoder struct {
	buf     []byte
	problem string
}

var encoders = sync.Pool{New: func() any { return &Encoder{buf: make([]byte, 0, 8<<10)} }}

// maxPooledBuffer is the largest buffer an Encoder keeps for reuse.
const maxPooledBuffer = maxCachedAnswer

// NewEncoder returns an empty Encoder from the pool; Free returns it.
func NewEncoder() *Encoder {
	e := encoders.Get().(*Encoder)
	e.buf, e.problem = e.buf[:0], ""
	return e
}

// Free returns e to the pool; its bytes must no longer be used.
func (e *Encoder) Free() {
	if cap(e.buf) > maxPooledBuffer {
		return
	}
	encoders.Put(e)
}

// Bytes is what was written so far.
func (e *Encoder) Bytes() []byte { return e.buf }

// Problem says what is wrong with the first number written that is out of
// the bounds, in the words of AnswerNumbersProblem ("" when none).
func (e *Encoder) Problem() string { return e.problem }

// Raw appends s as it is (JSON punctuation and member names that need no
// escaping).
func (e *Encoder) Raw(s string) { e.buf = append(e.buf, s...) }

// Byte appends one byte of JSON punctuation.
func (e *Encoder) Byte(c byte) { e.buf = append(e.buf, c) }

// String appends s as a JSON string.
func (e *Encoder) String(s string) { e.buf = AppendString(e.buf, s) }

// Bool appends true or false.
func (e *Encoder) Bool(b bool) { e.buf = strconv.AppendBool(e.buf, b) }

// Time appends t as env.FormatTime writes it, as a JSON string.
func (e *Encoder) Time(env *Env, t time.Time) {
	e.buf = append(e.buf, '"')
	e.buf = env.AppendTime(e.buf, t) // digits, '-', ':', 'T', '+': nothing to escape
	e.buf = append(e.buf, '"')
}

// Null appends null.
func (e *Encoder) Null() { e.buf = append(e.buf, "null"...) }

// Int appends n, checked against the bounds as every number is.
func (e *Encoder) Int(n int) {
	start := len(e.buf)
	e.buf = strconv.AppendInt(e.buf, int64(n), 10)
	e.check(start)
}

// Num appends d as Num writes it, checked against the bounds.
func (e *Encoder) Num(d decimal.Decimal) {
	start := len(e.buf)
	e.buf = AppendNum(e.buf, d)
	e.check(start)
}

// NumOrNull appends d as Num writes it, or null for an amount that could
// not be priced (NumOrNull).
func (e *Encoder) NumOrNull(d decimal.Decimal, missing bool) {
	if missing {
		e.Null()
		return
	}
	e.Num(d)
}

// MoneyOrNull appends d as Money writes it (at least two places), or null
// for an amount that could not be priced.
func (e *Encoder) MoneyOrNull(d decimal.Decimal, missing bool) {
	if missing {
		e.Null()
		return
	}
	start := len(e.buf)
	e.buf = AppendMoney(e.buf, d)
	e.check(start)
}

// Value appends v as encoding/json writes it (SetEscapeHTML(false)), its
// numbers checked as AnswerNumbersProblem checks an answer: for the parts
// of an answer that have no encoder of their own.
func (e *Encoder) Value(v any) error {
	if a, ok := v.(JSONAppender); ok {
		a.AppendJSON(e)
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if e.problem == "" {
		e.problem = AnswerNumbersProblem(b)
	}
	e.buf = append(e.buf, b...)
	return nil
}

// check checks the number written from start.
func (e *Encoder) check(start int) {
	if e.problem != "" {
		return
	}
	if p := tokenBounds(e.buf[start:]); p != "" {
		e.problem = figureProblem(p)
	}
}

// WriteAnswer writes what e holds as the answer, with the media type and
// status; a success whose numbers are out of the bounds answers 409 as
// WriteJSON does. It frees e.
func WriteAnswer(w http.ResponseWriter, mediaType string, status int, e *Encoder) {
	defer e.Free()
	if p := e.Problem(); p != "" && status < 300 {
		WriteJSON(w, mediaType, http.StatusConflict, map[string]any{"message": p, "errors": map[string][]string{"base": {p}}})
		return
	}
	w.Header().Set("Content-Type", mediaType)
	WriteBody(w, status, e.buf)
}

// AppendNum appends d as Num writes it (decimal's String after rounding to
// domain.MaxDecimalPlaces places), without allocating for a coefficient of
// up to 18 digits.
func AppendNum(dst []byte, d decimal.Decimal) []byte {
	if d.Exponent() < -domain.MaxDecimalPlaces {
		d = domain.RoundHalfUp(d, domain.MaxDecimalPlaces)
	}
	exp := int(d.Exponent())
	if !decimal.TrimTrailingZeros || decimal.UseScientificNotation || exp > 18 || exp < -18 || d.NumDigits() > 18 {
		return append(dst, d.String()...)
	}
	c := d.CoefficientInt64()
	if exp >= 0 {
		dst = strconv.AppendInt(dst, c, 10)
		if c != 0 {
			for range exp {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	places := -exp
	for places > 0 && c%10 == 0 { // String drops trailing zeros
		c /= 10
		places--
	}
	return domain.AppendScaled(dst, c, places, '.')
}

// AppendString appends s as a JSON string, as encoding/json writes it with
// SetEscapeHTML(false): quote, backslash and control characters escaped
// (\b, \f, \n, \r, \t or \u00XX), invalid UTF-8 as \ufffd, U+2028 and
// U+2029 as \u2028 and \u2029, everything else as it is.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = appendStringBody(dst, s)
	return append(dst, '"')
}

// Strings appends the concatenation of parts as one JSON string (a link:
// base, path, escaped id) without building it.
func (e *Encoder) Strings(parts ...string) {
	for _, p := range parts[:max(len(parts)-1, 0)] {
		if !utf8.ValidString(p) { // a rune may continue in the next part
			e.String(strings.Join(parts, ""))
			return
		}
	}
	e.buf = append(e.buf, '"')
	for _, p := range parts {
		e.buf = appendStringBody(e.buf, p)
	}
	e.buf = append(e.buf, '"')
}

// StringBytes appends s as a JSON string.
func (e *Encoder) StringBytes(s []byte) {
	e.buf = append(e.buf, '"')
	e.buf = appendStringBody(e.buf, s)
	e.buf = append(e.buf, '"')
}

// appendStringBody appends s escaped, without the quotes.
func appendStringBody[S []byte | string](dst []byte, s S) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}
