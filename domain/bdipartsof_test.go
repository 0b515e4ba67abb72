package domain_test

import (
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

// A request's BDI parts: AC, DF, L and taxes are required, each one left out
// named; S, R, G and CPRB default to 0.
func TestBDIPartsOf(t *testing.T) {
	sent := map[string]string{"ac": "4", "l": "7.4", "s": "0.8", "cprb": "4.5"}
	var v domain.Validation
	p := domain.BDIPartsOf("/bdi_components", func(name string) (decimal.Decimal, bool) {
		s, ok := sent[name]
		if !ok {
			return decimal.Decimal{}, false
		}
		return dec(s), true
	}, &v)
	var missing []string
	for _, f := range v.Fields {
		missing = append(missing, f.Field+" "+f.Message)
	}
	if d := cmp.Diff([]string{"/bdi_components/df is required", "/bdi_components/taxes is required"}, missing); d != "" {
		t.Errorf("missing (-want +got):\n%s", d)
	}
	if !p.AC.Equal(dec("4")) || !p.L.Equal(dec("7.4")) || !p.S.Equal(dec("0.8")) || !p.CPRB.Equal(dec("4.5")) ||
		!p.R.IsZero() || !p.G.IsZero() || !p.DF.IsZero() || !p.Taxes.IsZero() {
		t.Errorf("parts = %+v", *p)
	}
	if d := cmp.Diff([]string{"ac", "s", "r", "g", "df", "l", "taxes", "cprb"}, domain.BDIPartNames()); d != "" {
		t.Errorf("names (-want +got):\n%s", d)
	}
	if !domain.IsBDIPart("taxes") || domain.IsBDIPart("sg") {
		t.Error("IsBDIPart")
	}
}
