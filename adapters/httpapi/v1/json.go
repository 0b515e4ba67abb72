package v1

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strconv"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// number is a JSON number decoded exactly, digit for digit, into a decimal.
// Unlike decimal.Decimal's own decoder it refuses anything but a JSON number
// (a quoted "1.5" is a wrong type, 400), and it records whether the key was
// present. null counts as absent.
type number struct {
	D   decimal.Decimal
	Set bool
}

// numberType is what a wrong-type error says a number field is.
var numberType = reflect.TypeOf(float64(0))

// UnmarshalJSON implements json.Unmarshaler.
func (n *number) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*n = number{}
		return nil
	}
	if len(b) == 0 || !(b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) {
		return &json.UnmarshalTypeError{Value: jsonValueKind(b), Type: numberType}
	}
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return &json.UnmarshalTypeError{Value: "number " + string(b), Type: numberType}
	}
	*n = number{D: d, Set: true}
	return nil
}

// ptr returns the number as a patch field: nil when absent.
func (n number) ptr() *decimal.Decimal {
	if !n.Set {
		return nil
	}
	return &n.D
}

// jsonValueKind names the kind of a JSON value for an error message.
func jsonValueKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

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
type localsInput map[string]domain.PriceLine

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
		line, err := decodePrice(raw[st])
		if err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				te.Field = joinField(st, te.Field)
			}
			return err
		}
		out[st] = line
	}
	*l = out
	return nil
}

// decodePrice reads one state's prices: an object or a single number.
func decodePrice(b json.RawMessage) (domain.PriceLine, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '{' {
		var p priceObject
		err := json.Unmarshal(b, &p)
		return p.line(), err
	}
	var n number
	if err := n.UnmarshalJSON(b); err != nil {
		return domain.PriceLine{}, err
	}
	if !n.Set {
		return domain.PriceLine{}, &json.UnmarshalTypeError{Value: "null", Type: numberType}
	}
	return domain.PriceLine{PND: n.D, PD: n.D, PNDI: n.D, PDI: n.D}, nil
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
