package app

import (
	"reflect"
	"testing"
)

// TestTextFilterWords: a text filter of several words becomes one
// condition per word (each must hold, in any order); other filters are
// left whole.
func TestTextFilterWords(t *testing.T) {
	q, err := compileQuery(resourceList, ListQuery{Filters: map[string]string{
		"description": "  bloco   ALVENARIA ",
		"search":      "r-1",
		"unit":        "m2",
	}})
	if err != nil {
		t.Fatal(err)
	}
	desc, both := []Field{FieldDescription}, []Field{FieldCode, FieldDescription}
	want := []Cond{
		{Op: Contains, Fields: desc, Text: "bloco"},
		{Op: Contains, Fields: desc, Text: "ALVENARIA"},
		{Op: Contains, Fields: both, Text: "r-1"},
		{Op: EqualFold, Fields: []Field{FieldUnit}, Text: "m2"},
	}
	if !reflect.DeepEqual(q.Where, want) {
		t.Errorf("Where = %+v\nwant    %+v", q.Where, want)
	}
}
