package v2

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Bulk pricing: POST /prices/bulk prices up to app.MaxBulkPrices items of
// the reference banks or of the company's own base in one request and one
// read transaction (app.Service.PriceItems).
//
// The body is {"data": [query, …]}, each query a flat object (a lookup,
// not a resource to create): bank, code, and optionally kind, state, month
// and desonerado. The answer is 200 with one resource object of type
// "prices" per query, in the request's order, its id the query's index:
// the item's figures, or its own errors (attribute `errors`, JSON:API error
// objects whose pointers name the query, /data/<index>/…). A body that is
// not such a document (a member of the wrong JSON type: 400; an unknown
// member, a missing or badly written bank, code, state, month or kind, no
// query or more than app.MaxBulkPrices: 422) is refused whole, every bad
// member named at once.

const (
	pricesType = "prices"
	bulkPath   = "/prices/bulk"
)

// priceQueryMembers are the members a query may carry.
var priceQueryMembers = map[string]bool{"bank": true, "code": true, "kind": true, "state": true, "month": true, "desonerado": true}

// decodePriceQueries reads the body of a bulk request: the queries, and
// what is wrong with the body (the members of the wrong JSON type, 400;
// else the unknown ones, 422, to be told with the queries' own problems).
func decodePriceQueries(r *http.Request) ([]app.PriceQuery, domain.Validation, error) {
	var wrong domain.Validation
	var top map[string]json.RawMessage
	if err := httpapi.DecodeJSON(r, &top); err != nil {
		return nil, wrong, err
	}
	var bad domain.Validation
	for _, name := range sortedKeys(top) {
		if name != "data" {
			wrong.Add("/"+name, "is not a member of a bulk request: the queries go in data")
		}
	}
	raw, ok := top["data"]
	var items []json.RawMessage
	switch {
	case !ok:
		wrong.Add("/data", "is required: an array of the items to price")
	case json.Unmarshal(raw, &items) != nil || items == nil:
		bad.Add("/data", "must be an array of the items to price")
	}
	var qs []app.PriceQuery // nil without data
	if items != nil {
		qs = make([]app.PriceQuery, len(items))
	}
	for i, it := range items {
		ptr := "/data/" + strconv.Itoa(i)
		var members map[string]json.RawMessage
		if json.Unmarshal(it, &members) != nil || members == nil {
			bad.Add(ptr, "must be an object naming an item (bank, code…)")
			continue
		}
		q := &qs[i]
		for _, name := range sortedKeys(members) {
			v, at := members[name], ptr+"/"+name
			if !priceQueryMembers[name] {
				wrong.Add(at, "is not a member of an item to price")
				continue
			}
			if name == "desonerado" {
				var d *bool
				if json.Unmarshal(v, &d) != nil || d == nil {
					bad.Add(at, "must be true or false")
				} else if *d {
					q.Regime = domain.Desonerado
				}
				continue
			}
			var s *string
			if json.Unmarshal(v, &s) != nil || s == nil {
				bad.Add(at, "must be a string")
				continue
			}
			switch name {
			case "bank":
				q.Bank = *s
			case "code":
				q.Code = *s
			case "kind":
				q.Kind = domain.ItemKind(*s)
			case "state":
				q.State = *s
			case "month":
				q.Month = *s
			}
		}
	}
	if err := bad.Err(); err != nil {
		e := err.(*domain.Error)
		e.Code, e.Message = domain.EBADREQUEST, "the request body has members of the wrong JSON type"
		return nil, wrong, e
	}
	return qs, wrong, nil
}

// priceBulk handles POST /prices/bulk.
func (h *handlers) priceBulk(w http.ResponseWriter, r *http.Request) {
	if _, err := query(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	qs, wrong, err := decodePriceQueries(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var checked error // the queries' own rules, when data holds some
	if qs != nil {
		_, checked = app.CheckPriceQueries(qs)
	}
	if checked != nil || wrong.Len() > 0 {
		// Refused whole: every bad member of the body at once.
		_ = wrong.Merge("/data", checked)
		h.writeError(w, r, wrong.Err())
		return
	}
	out, err := h.env.App.PriceItems(r.Context(), principal(r), qs)
	if err != nil {
		h.writeErrorAt(w, r, err, func(p string) string { return "/data" + p })
		return
	}
	docs := make([]bulkPriceDoc, len(out))
	for i := range out {
		docs[i] = bulkPriceObject(i, &out[i])
	}
	h.writeJSON(w, r, http.StatusOK, struct {
		Data  []bulkPriceDoc `json:"data"`
		Links map[string]any `json:"links"`
	}{docs, map[string]any{"self": r.URL.Path}})
}

// bulkPriceDoc is the answer to one query: a resource object of type
// "prices" whose id is the query's index.
type bulkPriceDoc struct {
	Type       string         `json:"type"`
	ID         string         `json:"id"`
	Attributes bulkPriceAttrs `json:"attributes"`
}

// bulkPriceAttrs are the query as understood (bank and state upper case;
// for a bank item the edition read: its month, id), then either the item's
// figures (kind, description, unit, price in the regime asked, prices as
// the single reads give them, incomplete for an own composition some of
// whose items has no price) or errors.
type bulkPriceAttrs struct {
	Bank        string          `json:"bank"`
	Code        string          `json:"code"`
	Kind        *string         `json:"kind"`
	State       *string         `json:"state"`
	Month       *string         `json:"month"`
	Desonerado  bool            `json:"desonerado"`
	Edition     *string         `json:"edition,omitempty"`
	Description *string         `json:"description,omitempty"`
	Unit        *string         `json:"unit,omitempty"`
	Price       json.RawMessage `json:"price,omitempty"`
	Priced      *bool           `json:"priced,omitempty"`
	Prices      json.RawMessage `json:"prices,omitempty"`
	Incomplete  *bool           `json:"incomplete,omitempty"`
	Errors      []errorObject   `json:"errors,omitempty"`
}

func orNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// bulkPriceObject maps the answer to the query at index i.
func bulkPriceObject(i int, b *app.BulkPrice) bulkPriceDoc {
	q := b.Query
	a := bulkPriceAttrs{
		Bank: q.Bank, Code: q.Code, Kind: orNil(string(b.Kind())), State: orNil(q.State), Month: orNil(q.Month),
		Desonerado: q.Regime == domain.Desonerado,
	}
	doc := bulkPriceDoc{Type: pricesType, ID: strconv.Itoa(i)}
	ptr := "/data/" + strconv.Itoa(i)
	if b.Err != nil {
		a.Errors = errorObjects(b.Err, func(p string) string { return ptr + p })
		for j := range a.Errors {
			if a.Errors[j].Source == nil {
				a.Errors[j].Source = &errorSource{Pointer: ptr}
			}
		}
		doc.Attributes = a
		return doc
	}
	a.Description, a.Unit = ptrTo(b.Description()), ptrTo(b.Unit())
	price, priced := b.Price()
	a.Price = json.RawMessage("null")
	if priced {
		a.Price = json.RawMessage(httpapi.Num(price))
	}
	a.Priced = &priced
	incomplete := false
	switch {
	case b.Bank != nil:
		a.Edition = ptrTo(app.EditionID(b.Bank.Edition))
		a.Prices = bankPricesJSON(b.Bank)
	case b.Composition != nil:
		incomplete = b.Composition.Incomplete()
		e := httpapi.NewEncoder()
		httpapi.CompositionPrices.Append(e, &b.Composition.Prices)
		a.Prices = append(json.RawMessage(nil), e.Bytes()...)
		e.Free()
	case b.Resource != nil:
		l := b.Resource.Locals[q.State]
		a.Prices = rawJSON(resourcePricesDoc{PND: numPtr(l.PND), PD: numPtr(l.PD), PNDI: numPtr(l.PNDI), PDI: numPtr(l.PDI)})
	}
	a.Incomplete = &incomplete
	doc.Attributes = a
	return doc
}

// bankPricesJSON is a bank item's prices as GET /banks/{id}/items/{code}
// writes them (bankItemNode).
func bankPricesJSON(it *app.BankItem) json.RawMessage {
	orNull := httpapi.NumOrNull
	nd, d := it.Unpriced[domain.NaoDesonerado], it.Unpriced[domain.Desonerado]
	if it.Kind == domain.KindResource {
		return rawJSON(resourcePricesDoc{PND: orNull(it.Prices.PND, nd), PD: orNull(it.Prices.PD, d), PNDI: orNull(it.Prices.PNDI, nd), PDI: orNull(it.Prices.PDI, d)})
	}
	return rawJSON(compositionPricesDoc{PND: orNull(it.Prices.PND, nd), PD: orNull(it.Prices.PD, d)})
}

func ptrTo(s string) *string { return &s }

func numPtr(d decimal.Decimal) *json.Number {
	n := httpapi.Num(d)
	return &n
}

// rawJSON marshals a value that cannot fail to marshal.
func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
