package v1

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strconv"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// number is a numeric member of a v1 body: a JSON number or, as the API v1
// mirrors takes and its real clients send, numeric text in a JSON string
// ("2.5"), decoded exactly and within the bounds (httpapi.ParseNumber).
// Decoding never fails: a bad value keeps its problem for the answer's
// 422, which names every bad number at once (httpapi.NumberErrors). null
// counts as absent.
type number struct{ httpapi.LenientNumber }

// ptr returns the number as a patch field: nil when absent or bad.
func (n number) ptr() *decimal.Decimal { return n.Ptr() }

// whole is a whole-number member of a v1 body (a resource type, a
// calculation method), read as numbers are: numeric text taken.
type whole struct{ httpapi.LenientInteger }

// ptr returns the integer as a patch field: nil when absent or bad.
func (n whole) ptr() *int { return n.Ptr() }

// priceObject is a state's four prices as v1 writes and reads them.
type priceObject struct {
	PND  number `json:"pnd"`
	PD   number `json:"pd"`
	PNDI number `json:"pndi"`
	PDI  number `json:"pdi"`
}

func (p priceObject) line() domain.PriceLine {
	return domain.PriceLine{PND: p.PND.D, PD: p.PD.D, PNDI: p.PNDI.D, PDI: p.PDI.D}
}

// localsInput is the `locals` of an update request: state → the four prices
// as an object, or (the v1 form of a SICRO resource) a single number, which
// sets all four prices of the state. A null `locals` leaves the map nil, so
// that the prices are not touched.
type localsInput map[string]priceInput

// lines returns the prices per state; nil when `locals` was not sent.
func (l localsInput) lines() map[string]domain.PriceLine {
	if l == nil {
		return nil
	}
	out := make(map[string]domain.PriceLine, len(l))
	for st, p := range l {
		out[st] = p.line()
	}
	return out
}

// UnmarshalJSON implements json.Unmarshaler. A wrong type inside the map is
// reported on "locals.<state>.<key>", so that the error names the state.
func (l *localsInput) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*l = nil
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	states := make([]string, 0, len(raw))
	for st := range raw {
		states = append(states, st)
	}
	sort.Strings(states)
	out := make(localsInput, len(raw))
	for _, st := range states {
		var p priceInput
		if err := json.Unmarshal(raw[st], &p); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				te.Field = joinField(st, te.Field)
			}
			return err
		}
		out[st] = p
	}
	*l = out
	return nil
}

// priceInput is one state's prices as sent: the object of four prices, or
// a single number (or numeric text) for all four.
type priceInput struct {
	obj    priceObject
	single *number
}

// UnmarshalJSON implements json.Unmarshaler.
func (p *priceInput) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		*p = priceInput{}
		return json.Unmarshal(b, &p.obj)
	}
	var n number
	if err := n.UnmarshalJSON(b); err != nil {
		return err
	}
	if !n.Set && n.Problem == "" {
		n.Problem = httpapi.MustBeNumber // null is not a price
	}
	*p = priceInput{single: &n}
	return nil
}

func (p priceInput) line() domain.PriceLine {
	if p.single != nil {
		d := p.single.D
		return domain.PriceLine{PND: d, PD: d, PNDI: d, PDI: d}
	}
	return p.obj.line()
}

// NumberErrors implements httpapi.NumberErrorer: a single number is named
// by the state, the four prices by their keys.
func (p priceInput) NumberErrors(ptr string) []domain.FieldError {
	if p.single != nil {
		return httpapi.NumberErrors(*p.single, ptr)
	}
	return httpapi.NumberErrors(p.obj, ptr)
}

func joinField(a, b string) string {
	if b == "" {
		return a
	}
	return a + "." + b
}

// list is a JSON array decoded element by element, so that a wrong type in
// an element is reported with its index ("items.2.qty", shown as
// "items[2].qty"); encoding/json alone drops the index.
type list[T any] []T

// UnmarshalJSON implements json.Unmarshaler.
func (l *list[T]) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		*l = nil
		return nil
	}
	out := make([]T, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &out[i]); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				te.Field = joinField(strconv.Itoa(i), te.Field)
			}
			return err
		}
	}
	*l = out
	return nil
}
