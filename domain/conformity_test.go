package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
)

// TestConformityThresholds: art. 59's flags fire exactly below their
// thresholds: 74.99% is unfeasible and needs the guarantee, 75% only the
// guarantee, 84.99% the guarantee, 85% neither; a total one centavo under
// 75% of an odd reference is below it.
func TestConformityThresholds(t *testing.T) {
	l := domain.DefaultConformityLimits()
	ref := dec("100000")
	for _, c := range []struct {
		total                 string
		unfeasible, guarantee bool
	}{
		{"74990", true, true}, {"74999.99", true, true}, {"75000", false, true},
		{"84990", false, true}, {"84999.99", false, true}, {"85000", false, false}, {"100000", false, false},
	} {
		u, g := l.Judge(dec(c.total), ref)
		if u != c.unfeasible || g != c.guarantee {
			t.Errorf("%s of %s: unfeasible %v guarantee %v; want %v %v", c.total, ref, u, g, c.unfeasible, c.guarantee)
		}
	}
	// 75% of 1,234.57 is 925.9275: 925.92 is below, 925.93 is not.
	if u, _ := l.Judge(dec("925.92"), dec("1234.57")); !u {
		t.Error("925.92 of 1234.57 is below 75%")
	}
	if u, _ := l.Judge(dec("925.93"), dec("1234.57")); u {
		t.Error("925.93 of 1234.57 is not below 75%")
	}
	for _, bad := range []domain.ConformityLimits{{Unfeasible: dec("0"), Guarantee: dec("85")},
		{Unfeasible: dec("90"), Guarantee: dec("85")}, {Unfeasible: dec("75.001"), Guarantee: dec("101")}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("limits %+v accepted", bad)
		}
	}
}
