package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

func TestLabourPrice(t *testing.T) {
	for _, tc := range []struct{ base, charges, want string }{
		{"18.37", "68.5", "30.95"},   // 18.37 × 1.685 = 30.953450, truncated
		{"10", "0", "10"},            // no charges: the base
		{"12.34", "100", "24.68"},    // doubled
		{"7.77", "33.3333", "10.35"}, // 7.77 × 1.333333 = 10.35999741, truncated
	} {
		got := domain.LabourPrice(decimal.RequireFromString(tc.base), decimal.RequireFromString(tc.charges))
		if !got.Equal(decimal.RequireFromString(tc.want)) {
			t.Errorf("LabourPrice(%s, %s%%) = %s, want %s", tc.base, tc.charges, got, tc.want)
		}
	}
}

func TestValidateLabourCharges(t *testing.T) {
	for _, tc := range []struct {
		v  decimal.NullDecimal
		ok bool
	}{
		{decimal.NullDecimal{}, true},
		{decimal.NewNullDecimal(decimal.RequireFromString("0")), true},
		{decimal.NewNullDecimal(decimal.RequireFromString("84.27")), true},
		{decimal.NewNullDecimal(decimal.RequireFromString("-1")), false},
		{decimal.NewNullDecimal(decimal.RequireFromString("1000.01")), false},
		{decimal.NewNullDecimal(decimal.RequireFromString("1.00001")), false},
	} {
		var v domain.Validation
		domain.ValidateLabourCharges(&v, "/labour_charges", tc.v)
		if (v.Err() == nil) != tc.ok {
			t.Errorf("%v: error %v, want ok %v", tc.v, v.Err(), tc.ok)
		}
	}
}
