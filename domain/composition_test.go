package domain

import "testing"

func TestCompositionCloneKeepsEmptyApartFromMissing(t *testing.T) {
	empty := &Composition{Banks: []BankRef{}, Items: []Item{}, Tags: []string{}}
	got := empty.Clone()
	if got.Banks == nil || got.Items == nil || got.Tags == nil {
		t.Errorf("Clone of empty lists gave banks %v, items %v, tags %v: want empty, not missing", got.Banks == nil, got.Items == nil, got.Tags == nil)
	}
	missing := (&Composition{}).Clone()
	if missing.Banks != nil || missing.Items != nil || missing.Tags != nil {
		t.Errorf("Clone of missing lists gave %+v: want them missing", missing)
	}
	full := &Composition{Items: []Item{{Code: "1"}}, Tags: []string{"a"}}
	c := full.Clone()
	c.Items[0].Code, c.Tags[0] = "2", "b"
	if full.Items[0].Code != "1" || full.Tags[0] != "a" {
		t.Errorf("Clone shares its lists with the original: %+v", full)
	}
}
