package v2

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/google/jsonapi"
)

// A company's price index series and readjustments (docs/readjustment.md):
//
//	GET    /indexes                 the company's series (JSON:API type "indexes", id the name)
//	GET    /indexes/{id}            a series with its months
//	PUT    /indexes/{id}            writes it: JSON (numbers or variations), or
//	                                text/csv as Banco Central's SGS exports it (?kind=numbers|variations)
//	DELETE /indexes/{id}
//	POST   /readjustments           the readjustment of measured values from a base month
const indexType = "indexes"

// indexNode is a series as v2 writes it; with its points when whole.
func (h *handlers) indexNode(s *domain.IndexSeries, whole bool) *jsonapi.Node {
	months := s.Months()
	attrs := map[string]any{"name": s.Name, "months": len(months), "first": nil, "last": nil,
		"updated_at": h.env.FormatTime(s.UpdatedAt)}
	if len(months) > 0 {
		attrs["first"], attrs["last"] = months[0], months[len(months)-1]
	}
	if whole {
		pts := make([]map[string]any, len(months))
		for i, m := range months {
			pts[i] = map[string]any{"month": m, "value": httpapi.Num(s.Points[m])}
		}
		attrs["points"] = pts
	}
	return &jsonapi.Node{Type: indexType, ID: s.Name, Attributes: attrs}
}

// listIndexes handles GET /indexes.
func (h *handlers) listIndexes(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.env.App.Indexes(r.Context(), principal(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	nodes := make([]*jsonapi.Node, len(list))
	for i, s := range list {
		nodes[i] = h.indexNode(s, false)
	}
	h.writeNodes(w, r, &jsonapi.ManyPayload{Data: nodes, Meta: totalMeta(len(nodes))})
}

// getIndex handles GET /indexes/{id}.
func (h *handlers) getIndex(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	s, err := h.env.App.Index(r.Context(), principal(r), chi.URLParam(r, "id"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.indexNode(s, true)})
}

// indexPointIn is a month of a series as a request sends it.
type indexPointIn struct {
	Month string `json:"month"`
	Value number `json:"value"`
}

var (
	aIdxKind   = attr{app: "kind", names: []string{"kind"}, kind: "string"}
	aIdxBase   = attr{app: "base", names: []string{"base"}, kind: "number"}
	aIdxPoints = attr{app: "points", names: []string{"points"}, kind: "array of {month, value}"}
	// indexReadOnly are the attributes v2 writes and never reads.
	indexReadOnly = []string{"name", "months", "first", "last", "updated_at"}
)

// indexKind reads "numbers" (the default) or "variations".
func indexKind(kind string) (bool, error) {
	switch kind {
	case "", "numbers":
		return false, nil
	case "variations":
		return true, nil
	}
	return false, errors.New(`must be "numbers" (index numbers) or "variations" (monthly variations in percent)`)
}

// indexQuery reads ?kind= and ?base=, the series' kind and the number its
// variations are chained from.
func indexQuery(q url.Values) (app.IndexInput, paramErrors) {
	var in app.IndexInput
	var bad paramErrors
	var err error
	if in.Variations, err = indexKind(q.Get("kind")); err != nil {
		bad = append(bad, &paramError{Param: "kind", Message: err.Error()})
	}
	if v, ok := q["base"]; ok {
		d, problem := httpapi.ParseNumber([]byte(strings.TrimSpace(v[0])), false)
		if problem != "" || !d.IsPositive() {
			bad = append(bad, &paramError{Param: "base", Message: "must be a positive number"})
		}
		in.Base = d
	}
	return in, bad
}

// putIndex handles PUT /indexes/{id}.
func (h *handlers) putIndex(w http.ResponseWriter, r *http.Request) {
	name := chi.URLParam(r, "id")
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "text/csv" {
		h.putIndexSGS(w, r, name)
		return
	}
	// kind and base may come as query parameters too (as with a CSV body);
	// the body's members win.
	q, err := query(r, "kind", "base")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	in, bad := indexQuery(q)
	if len(bad) > 0 {
		h.writeError(w, r, bad)
		return
	}
	b, err := decodeAttrs(r, indexType, domain.IndexName(name))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if k := read[string](b, aIdxKind); k != nil {
		if in.Variations, err = indexKind(*k); err != nil {
			b.wrong.Add(b.attrPointer("kind"), "%s", err.Error())
		}
	}
	if v := readNumber(b, aIdxBase); v != nil {
		if !v.IsPositive() {
			b.wrong.Add(b.attrPointer("base"), "must be a positive number, not %s", v)
		}
		in.Base = *v
	}
	if pts := readNumbers[[]indexPointIn](b, aIdxPoints); pts != nil {
		for _, p := range *pts {
			in.Points = append(in.Points, domain.IndexPoint{Month: p.Month, Value: p.Value.D})
		}
	}
	if err := b.finish(indexReadOnly...); err != nil {
		h.writeError(w, r, err)
		return
	}
	s, err := h.env.App.Rejecting(b.rejected).PutIndex(r.Context(), principal(r), name, in)
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.indexNode(s, true)})
}

// putIndexSGS handles PUT /indexes/{id} with an SGS CSV body.
func (h *handlers) putIndexSGS(w http.ResponseWriter, r *http.Request, name string) {
	q, err := query(r, "kind", "base")
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	in, bad := indexQuery(q)
	if len(bad) > 0 {
		h.writeError(w, r, bad)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = domain.Errorf(httpapi.ETOOLARGE, "the request body is larger than %d bytes", mbe.Limit)
		}
		h.writeError(w, r, err)
		return
	}
	if in.Points, err = bankfiles.ReadSGS(bytes.NewReader(body)); err != nil {
		h.writeError(w, r, domain.FieldErrorf("/", "%s", err.Error()))
		return
	}
	s, err := h.env.App.PutIndex(r.Context(), principal(r), name, in)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: h.indexNode(s, true)})
}

// deleteIndex handles DELETE /indexes/{id}.
func (h *handlers) deleteIndex(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	if err := h.env.App.DeleteIndex(r.Context(), principal(r), chi.URLParam(r, "id")); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// readjustRowIn is a measured value as a request sends it.
type readjustRowIn struct {
	Number int     `json:"number"`
	Month  string  `json:"month"`
	Value  *number `json:"value"`
}

var (
	aRjIndex  = attr{app: "index", names: []string{"index"}, kind: "string"}
	aRjBase   = attr{app: "base_month", names: []string{"base_month"}, kind: "string"}
	aRjPlaces = attr{app: "places", names: []string{"places"}, kind: "integer"}
	aRjRows   = attr{app: "rows", names: []string{"rows"}, kind: "array of {number, month, value}"}
)

type readjustIn struct {
	index, base string
	places      int32
	rows        []domain.ReadjustInput
}

// readjust handles POST /readjustments: the statement, computed (nothing
// is stored).
func (h *handlers) readjust(w http.ResponseWriter, r *http.Request) {
	b, in, ok := readPatch(h, w, r, "readjustments", "", func(b *attrBody) readjustIn {
		in := readjustIn{places: domain.DefaultReadjustPlaces}
		if v := read[string](b, aRjIndex); v != nil {
			in.index = *v
		}
		if v := read[string](b, aRjBase); v != nil {
			in.base = *v
		}
		if v := read[int](b, aRjPlaces); v != nil {
			in.places = int32(max(min(*v, 1000), -1000))
		}
		if rows := readNumbers[[]readjustRowIn](b, aRjRows); rows != nil {
			for i, x := range *rows {
				ptr := "/rows/" + strconv.Itoa(i)
				row := domain.ReadjustInput{Number: x.Number, Month: x.Month}
				if x.Value == nil {
					b.rejected = append(b.rejected, domain.FieldError{Field: ptr + "/value", Message: "is required"})
				} else {
					row.Value = x.Value.D
				}
				if x.Number < 0 {
					b.rejected = append(b.rejected, domain.FieldError{Field: ptr + "/number", Message: "must not be negative"})
				}
				in.rows = append(in.rows, row)
			}
		}
		return in
	})
	if !ok {
		return
	}
	st, err := h.env.App.Readjust(r.Context(), principal(r), in.index, in.base, in.places, in.rows)
	if len(b.rejected) > 0 && (err == nil || domain.ErrorCode(err) == domain.EINVALID) {
		// A read: the rejected members are told here, with the others.
		var v domain.Validation
		for _, f := range b.rejected {
			v.AddField(f)
		}
		_ = v.Merge("", err)
		err = v.Err()
	}
	if err != nil {
		h.writeErrorAt(w, r, err, b.pointers)
		return
	}
	h.writeNodes(w, r, &jsonapi.OnePayload{Data: readjustmentNode(st, st.Index+":"+st.BaseMonth+":"+strconv.Itoa(int(st.Places)))})
}

// readjustmentNode is a readjustment statement as the JSON:API resource
// "readjustments" with the id given.
func readjustmentNode(st *domain.ReadjustStatement, id string) *jsonapi.Node {
	rows := make([]map[string]any, len(st.Rows))
	for i, x := range st.Rows {
		rows[i] = map[string]any{"number": x.Number, "month": x.Month, "value": httpapi.Money(x.Value), "years": x.Years,
			"anniversary": strOrNil(x.Anniversary), "i0": httpapi.Num(x.I0), "i": httpapi.Num(x.I),
			"factor": httpapi.Num(x.Factor), "amount": httpapi.Money(x.Amount)}
	}
	return &jsonapi.Node{Type: "readjustments", ID: id, Attributes: map[string]any{
		"index": st.Index, "base_month": st.BaseMonth, "places": st.Places, "rows": rows,
		"total": httpapi.Money(st.Total), "total_amount": httpapi.Money(st.TotalAmount),
	}}
}
