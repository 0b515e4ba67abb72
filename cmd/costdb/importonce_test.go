package main

import (
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// TestHandOver: each edition is handed over once and let go; asked again
// (the store runs the transaction again), the files are read again; with
// no way to read them again every edition is kept.
func TestHandOver(t *testing.T) {
	edition := func(code string) bankfiles.Edition {
		return bankfiles.Edition{Edition: domain.Edition{Bank: "SINAPI", State: "AC", Month: "10/2024"},
			Resources: []*domain.BankResource{{Code: code}}}
	}
	eds := []bankfiles.Edition{edition("1"), edition("2")}
	rereads := 0
	next := handOver(eds, func() ([]bankfiles.Edition, error) {
		rereads++
		return []bankfiles.Edition{edition("1"), edition("2")}, nil
	})
	for i, want := range []string{"1", "2"} {
		d, err := next(i)
		if err != nil || d == nil || d.Resources[0].Code != want {
			t.Fatalf("edition %d: %+v, %v", i, d, err)
		}
		if eds[i].Resources != nil {
			t.Errorf("edition %d is still held once handed over", i)
		}
	}
	if d, err := next(2); d != nil || err != nil {
		t.Errorf("past the editions: %+v, %v", d, err)
	}
	if rereads != 0 {
		t.Errorf("read again %d times without a retry", rereads)
	}
	// The transaction runs again from the first edition.
	for i, want := range []string{"1", "2"} {
		d, err := next(i)
		if err != nil || d == nil || d.Resources[0].Code != want {
			t.Fatalf("retry, edition %d: %+v, %v", i, d, err)
		}
	}
	if rereads != 1 {
		t.Errorf("a retry read the files %d times, want once", rereads)
	}

	kept := []bankfiles.Edition{edition("1")}
	keep := handOver(kept, nil)
	for range 2 {
		if d, err := keep(0); err != nil || d == nil || d.Resources[0].Code != "1" {
			t.Fatalf("without reread: %+v, %v", d, err)
		}
	}
	if kept[0].Resources == nil {
		t.Errorf("without reread an edition was let go")
	}
}
