package v1

import (
	"bytes"
	"encoding/json"
	"github.com/costdb/costdb/adapters/httpapi"
	"reflect"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
)

// Every name a v1 read returns can be written back (docs/decisions.md, "v1
// leniency"): a composition read shows its state as `state` and its method as
// `calculation_method`, while create and update take `local` and
// `rounding_type`; both spellings are accepted, and both together must agree.

// calcMethodInput is `calculation_method` as a request sends it back: the
// object a read shows ({"type": 2, "description": "..."}; the description is
// ignored) or its type as an integer. null counts as absent.
type calcMethodInput struct {
	Type int
	Set  bool
}

// calcMethodType is what a wrong-type error says calculation_method is.
var calcMethodType = reflect.TypeOf(calculationMethod{})

// UnmarshalJSON implements json.Unmarshaler.
func (c *calcMethodInput) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*c = calcMethodInput{}
		return nil
	}
	if len(b) > 0 && b[0] == '{' {
		var obj struct {
			Type json.RawMessage `json:"type"`
		}
		if err := json.Unmarshal(b, &obj); err != nil {
			return err
		}
		if obj.Type == nil || string(bytes.TrimSpace(obj.Type)) == "null" {
			*c = calcMethodInput{}
			return nil
		}
		b = obj.Type
	}
	// The type is read as every v1 number is: numeric text taken.
	var n httpapi.LenientInteger
	_ = n.UnmarshalJSON(b)
	if !n.Set {
		return &json.UnmarshalTypeError{Value: jsonValueKind(b), Type: calcMethodType}
	}
	*c = calcMethodInput{Type: n.N, Set: true}
	return nil
}

// jsonValueKind names the JSON type of a value, for a wrong-type error.
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

// pickState returns the state named by `local` or `state`, and EINVALID
// naming both when both are sent and differ.
func pickState(local, state *string) (*string, error) {
	switch {
	case local == nil:
		return state, nil
	case state == nil:
		return local, nil
	case !strings.EqualFold(strings.TrimSpace(*local), strings.TrimSpace(*state)):
		return nil, bothNames("/local", "/state", "the state", *local, *state)
	}
	return local, nil
}

// pickRounding returns the method named by `rounding_type` or
// `calculation_method`, and EINVALID naming both when both are sent and
// differ.
func pickRounding(rounding *int, cm calcMethodInput) (*int, error) {
	if !cm.Set {
		return rounding, nil
	}
	if rounding != nil && *rounding != cm.Type {
		return nil, bothNames("/rounding_type", "/calculation_method", "the calculation method", *rounding, cm.Type)
	}
	t := cm.Type
	return &t, nil
}

// bothNames is the 422 of two names of one field that disagree.
func bothNames(a, b, what string, va, vb any) error {
	na, nb := strings.TrimPrefix(a, "/"), strings.TrimPrefix(b, "/")
	var v domain.Validation
	v.Add(a, "is %v but %s is %v: both name %s; send one, or both equal", va, nb, vb, what)
	v.Add(b, "is %v but %s is %v: both name %s; send one, or both equal", vb, na, va, what)
	return v.Err()
}

// A resource's update answer shows the secondary code as `code_2` and the
// prices as `local`, its reads as `second_code` and `locals`: an update takes
// either spelling, and both together must agree.

// updateLocal is `local` in a resource update: an object is the prices per
// state (the update answer's `local`); a string (the state of a create body)
// names no prices in an update and is ignored, as before.
type updateLocal struct {
	Locals localsInput
}

// UnmarshalJSON implements json.Unmarshaler.
func (u *updateLocal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*u = updateLocal{}
		return nil
	}
	return u.Locals.UnmarshalJSON(b)
}

// pickSecondCode returns the secondary code named by second_code or code_2.
func pickSecondCode(second, code2 *string) (*string, error) {
	switch {
	case second == nil:
		return code2, nil
	case code2 == nil || *second == *code2:
		return second, nil
	}
	return nil, bothNames("/second_code", "/code_2", "the secondary code", strconv.Quote(*second), strconv.Quote(*code2))
}

// pickLocals returns the prices named by locals or local.
func pickLocals(locals, local localsInput) (localsInput, error) {
	switch {
	case local == nil:
		return locals, nil
	case locals == nil || sameLocals(locals, local):
		return local, nil
	}
	var v domain.Validation
	v.Add("/locals", "differs from local: both name the prices per state; send one, or both equal")
	v.Add("/local", "differs from locals: both name the prices per state; send one, or both equal")
	return nil, v.Err()
}

func sameLocals(a, b localsInput) bool {
	la, lb := a.lines(), b.lines()
	if len(la) != len(lb) {
		return false
	}
	for st, p := range la {
		q, ok := lb[st]
		if !ok || !p.PND.Equal(q.PND) || !p.PD.Equal(q.PD) || !p.PNDI.Equal(q.PNDI) || !p.PDI.Equal(q.PDI) {
			return false
		}
	}
	return true
}
