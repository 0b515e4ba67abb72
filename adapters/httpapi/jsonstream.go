package httpapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// JSONWriter writes a JSON document piece by piece to a buffered stream,
// for answers too big to build whole (the reports of a budget: issue 11,
// docs/decisions.md "Streamed reports"). What it writes is byte for byte
// what encoding/json writes with HTML escaping off: strings escaped as
// json.Encoder escapes them, numbers verbatim. Write errors are sticky:
// after the first one nothing more is written and Flush returns it.
type JSONWriter struct {
	w   *bufio.Writer
	err error
	enc *json.Encoder // for Value
	buf bytes.Buffer
	// scratch holds a string being escaped.
	scratch []byte
}

// streamBuffer is how much of an answer is gathered before it is sent.
const streamBuffer = 32 << 10

// NewJSONWriter writes to w through a buffer.
func NewJSONWriter(w io.Writer) *JSONWriter {
	j := &JSONWriter{w: bufio.NewWriterSize(w, streamBuffer)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// Raw writes s as it is (punctuation, member names already quoted).
func (j *JSONWriter) Raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// Number writes a number verbatim.
func (j *JSONWriter) Number(n json.Number) { j.Raw(string(n)) }

// Int writes an integer.
func (j *JSONWriter) Int(i int) {
	if j.err == nil {
		j.scratch = strconv.AppendInt(j.scratch[:0], int64(i), 10)
		_, j.err = j.w.Write(j.scratch)
	}
}

// Money writes an amount as Money does, without building a string.
func (j *JSONWriter) Money(d decimal.Decimal) {
	if j.err == nil {
		j.scratch = AppendMoney(j.scratch[:0], d)
		_, j.err = j.w.Write(j.scratch)
	}
}

// Bool writes true or false.
func (j *JSONWriter) Bool(b bool) {
	if b {
		j.Raw("true")
	} else {
		j.Raw("false")
	}
}

// Null writes null.
func (j *JSONWriter) Null() { j.Raw("null") }

// String writes s as a JSON string, escaped as encoding/json escapes it
// (AppendString).
func (j *JSONWriter) String(s string) {
	if j.err == nil {
		j.scratch = AppendString(j.scratch[:0], s)
		_, j.err = j.w.Write(j.scratch)
	}
}

// StringOrNull writes s, or null for nil.
func (j *JSONWriter) StringOrNull(s *string) {
	if s == nil {
		j.Null()
		return
	}
	j.String(*s)
}

// Value writes v as encoding/json does (without HTML escaping and without
// json.Encoder's newline): for the small parts of a streamed document.
func (j *JSONWriter) Value(v any) {
	if j.err != nil {
		return
	}
	j.buf.Reset()
	if j.err = j.enc.Encode(v); j.err != nil {
		return
	}
	_, j.err = j.w.Write(bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")))
}

// Err is the first error met.
func (j *JSONWriter) Err() error { return j.err }

// Flush sends what is buffered.
func (j *JSONWriter) Flush() error {
	if j.err == nil {
		j.err = j.w.Flush()
	}
	return j.err
}

// StreamJSON answers 200 with a JSON document of the media type written by
// write as it goes. Everything that decides the status (errors, figures out
// of bounds) must be settled before: once called, the answer is a 200.
func StreamJSON(w http.ResponseWriter, mediaType string, write func(*JSONWriter)) {
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(http.StatusOK)
	j := NewJSONWriter(w)
	write(j)
	j.Raw("\n") // json.Encoder's
	_ = j.Flush()
}

// StartExport sends the headers of a 200 export (WriteExport's, without
// Content-Length) before its body is written as it is computed.
func StartExport(w http.ResponseWriter, mediaType, disposition, filename string) {
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": filename}))
	w.WriteHeader(http.StatusOK)
}

// ItemTree writes the items of an analytic report's composition lines as
// JSON arrays, each item the object Item declares followed by its own
// "items". Subtrees are shared between the rows that open the same
// composition (domain.AnalyticItem): each is rendered once and its bytes
// written again. Each generation declares only its item's members.
type ItemTree struct {
	// Item is an item's members, all but "items".
	Item *Object[*domain.AnalyticItem]
	done map[*domain.AnalyticItem][]byte
}

// Write writes items as a JSON array.
func (t *ItemTree) Write(j *JSONWriter, items []domain.AnalyticItem) {
	if len(items) == 0 {
		j.Raw("[]")
		return
	}
	if b, ok := t.done[&items[0]]; ok {
		j.Raw(string(b))
		return
	}
	e := NewEncoder()
	t.append(e, items)
	j.Raw(string(e.Bytes()))
	e.Free()
}

// append appends items as a JSON array, rendering each subtree once (the
// report's figures are checked before its first byte: the encoder's
// bounds verdict is not needed here).
func (t *ItemTree) append(e *Encoder, items []domain.AnalyticItem) {
	if len(items) == 0 {
		e.Raw("[]")
		return
	}
	if b, ok := t.done[&items[0]]; ok {
		e.buf = append(e.buf, b...)
		return
	}
	start := len(e.buf)
	e.Byte('[')
	for i := range items {
		it := &items[i]
		if i > 0 {
			e.Byte(',')
		}
		e.Byte('{')
		t.Item.AppendMembers(e, it, false)
		e.Raw(`,"items":`)
		t.append(e, it.Items)
		e.Byte('}')
	}
	e.Byte(']')
	if t.done == nil {
		t.done = map[*domain.AnalyticItem][]byte{}
	}
	t.done[&items[0]] = bytes.Clone(e.buf[start:])
}

// WriteSummary writes a cost summary by category as both generations show
// it, {labor, material, equipment, services, total}, each figure written
// by money (v1 a string, v2 a number).
func WriteSummary(j *JSONWriter, s domain.CostSummary, money func(j *JSONWriter, d decimal.Decimal)) {
	for _, m := range []struct {
		key string
		d   decimal.Decimal
	}{{`{"labor":`, s.Labor}, {`,"material":`, s.Material}, {`,"equipment":`, s.Equipment}, {`,"services":`, s.Services}, {`,"total":`, s.Total()}} {
		j.Raw(m.key)
		money(j, m.d)
	}
	j.Raw("}")
}

// The members of an analytic report's item both generations show alike.
var (
	ItemKind        = Str("kind", func(it *domain.AnalyticItem) string { return string(it.Kind) })
	ItemBaseVersion = StrOrNull("base_version", func(it *domain.AnalyticItem) string { return it.Month })
	ItemCode        = Str("code", func(it *domain.AnalyticItem) string { return it.Code })
	ItemMissing     = Boolean("missing", func(it *domain.AnalyticItem) bool { return it.Missing })
)
