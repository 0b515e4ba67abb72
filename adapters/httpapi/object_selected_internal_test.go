package httpapi

import (
	"slices"
	"testing"
)

// TestObjectSelected: AppendSelected writes only the members keep names
// (a sparse fieldset), in the table's order, with commas right whatever
// is left out (the first member, OmitIf's), nothing at all for an empty
// selection, every member for a nil keep; Names lists the table.
func TestObjectSelected(t *testing.T) {
	o := NewObject(
		Str("a", func(r *objRec) string { return r.Name }),
		Whole("b", func(r *objRec) int { return r.N }),
		Boolean("c", func(r *objRec) bool { return r.Ok }).OmitIf(func(r *objRec) bool { return !r.Ok }),
		Str("d", func(r *objRec) string { return r.Group }),
	)
	if got := o.Names(); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("Names %v", got)
	}
	rec := &objRec{Name: "x", N: 2, Group: "g"}
	tests := []struct {
		keep  []string // nil: every member
		comma bool
		want  string
		wrote bool
	}{
		{nil, false, `"a":"x","b":2,"d":"g"`, true},
		{[]string{"b", "d"}, false, `"b":2,"d":"g"`, true},
		{[]string{"d", "c"}, true, `,"d":"g"`, true}, // c is omitted for this record
		{[]string{"c"}, true, ``, false},
		{[]string{}, false, ``, false},
	}
	for _, tt := range tests {
		var keep func(string) bool
		if tt.keep != nil {
			keep = func(name string) bool { return slices.Contains(tt.keep, name) }
		}
		e := NewEncoder()
		wrote := o.AppendSelected(e, rec, tt.comma, keep)
		if got := string(e.Bytes()); got != tt.want || wrote != tt.wrote {
			t.Errorf("keep %v comma %v: %q (wrote %v), want %q (%v)", tt.keep, tt.comma, got, wrote, tt.want, tt.wrote)
		}
		e.Free()
	}
}
