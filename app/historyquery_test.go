package app_test

import (
	"testing"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// A price history query is normalized, and a query without a reference
// bank, with a bad state or a bad kind is EINVALID naming each of them.
func TestHistoryQueryCheck(t *testing.T) {
	q, err := app.HistoryQuery{Bank: " sinapi ", State: "mg ", Code: " 89306", Kind: domain.KindResource}.Check()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(app.HistoryQuery{Bank: "SINAPI", State: "MG", Code: "89306", Kind: domain.KindResource}, q); d != "" {
		t.Errorf("normalized (-want +got):\n%s", d)
	}
	for _, bank := range []string{"", "mybase"} {
		_, err = app.HistoryQuery{Bank: bank, State: "XX", Code: "1", Kind: "x"}.Check()
		var got []string
		for _, f := range domain.ErrorFields(err) {
			got = append(got, f.Field)
		}
		if domain.ErrorCode(err) != domain.EINVALID || cmp.Diff([]string{"/bank", "/location", "/kind"}, got) != "" {
			t.Errorf("bank %q: err = %v, fields %v", bank, err, got)
		}
	}
}
