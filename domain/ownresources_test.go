package domain

import (
	"slices"
	"testing"
)

func TestOwnResourceCodes(t *testing.T) {
	c := &Composition{Items: []Item{
		{Bank: BankMyBase, Code: "R1", Kind: KindResource},
		{Bank: "SINAPI", Code: "88316", Kind: KindResource},
		{Bank: BankMyBase, Code: "C1", Kind: KindComposition},
		{Bank: BankMyBase, Code: "R2", Kind: KindResource},
	}}
	if got := c.OwnResourceCodes(); !slices.Equal(got, []string{"R1", "R2"}) {
		t.Errorf("OwnResourceCodes = %v, want [R1 R2]", got)
	}
	if got := (&Composition{}).OwnResourceCodes(); got != nil {
		t.Errorf("no items: %v", got)
	}
}
