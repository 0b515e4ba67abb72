package httpapi

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

type objRec struct {
	Name  string
	Group string
	N     int
	Ok    bool
	Price decimal.Decimal
	Tags  []string
	Keys  []string
}

// TestObject: a table writes the members in its order (SortedObject: by
// name, as encoding/json writes a map), leaves out what OmitIf says,
// writes StrOrNull's empty string as null, and Keyed writes an object as
// encoding/json writes a map filled in order (sorted, the last of a key).
func TestObject(t *testing.T) {
	members := []Member[*objRec]{
		Str("name", func(r *objRec) string { return r.Name }),
		StrOrNull("group", func(r *objRec) string { return r.Group }),
		Whole("n", func(r *objRec) int { return r.N }),
		Boolean("ok", func(r *objRec) bool { return r.Ok }).OmitIf(func(r *objRec) bool { return !r.Ok }),
		Dec("price", func(r *objRec) decimal.Decimal { return r.Price }),
		TagList(func(r *objRec) []string { return r.Tags }),
		Field("keyed", func(e *Encoder, r *objRec) {
			e.Keyed(len(r.Keys), func(i int, dst []byte) []byte { return append(dst, r.Keys[i]...) },
				func(e *Encoder, i int) { e.Int(i) })
		}),
	}
	rec := &objRec{Name: `a "b"`, N: 7, Price: decimal.New(1250, -3), Keys: []string{"z", "a", "z", "\u00e7"}}
	write := func(o *Object[*objRec], r *objRec) string {
		e := NewEncoder()
		defer e.Free()
		o.Append(e, r)
		return string(e.Bytes())
	}
	got := write(NewObject(members...), rec)
	want := `{"name":"a \"b\"","group":null,"n":7,"price":1.25,"keyed":{"a":1,"z":2,"ç":3}}`
	if got != want {
		t.Errorf("in order:\n got %s\nwant %s", got, want)
	}
	rec.Group, rec.Ok, rec.Tags = "g", true, []string{"x", "y"}
	got = write(SortedObject(members...), rec)
	want = `{"group":"g","keyed":{"a":1,"z":2,"ç":3},"n":7,"name":"a \"b\"","ok":true,"price":1.25,"tags":["x","y"]}`
	if got != want {
		t.Errorf("sorted:\n got %s\nwant %s", got, want)
	}
	// What encoding/json writes of the same map.
	var m map[string]any
	if err := json.Unmarshal([]byte(got), &m); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(m); string(b) != want {
		t.Errorf("encoding/json writes %s", b)
	}
	// With adds members after the others; AppendMembers after a comma.
	e := NewEncoder()
	defer e.Free()
	e.Byte('{')
	e.Raw(`"first":1`)
	NewObject(members[:1]...).With(members[2]).AppendMembers(e, rec, true)
	e.Byte('}')
	if got := string(e.Bytes()); got != `{"first":1,"name":"a \"b\"","n":7}` {
		t.Errorf("With/AppendMembers: %s", got)
	}
}
