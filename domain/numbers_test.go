package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
)

func TestNumberBoundsProblem(t *testing.T) {
	for in, bad := range map[string]bool{
		"0": false, "999999999999999": false, "999999999999999.9999999999": false, "-999999999999999": false,
		"1.5000000000000": false, "0.0000000001": false,
		"1000000000000000": true, "-1000000000000000": true, "0.00000000001": true, "1e15": true, "1e-11": true,
	} {
		if got := domain.NumberBoundsProblem(domain.Dec(in)) != ""; got != bad {
			t.Errorf("NumberBoundsProblem(%s) found a problem: %v, want %v", in, got, bad)
		}
	}
}
