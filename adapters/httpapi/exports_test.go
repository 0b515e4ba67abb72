package httpapi_test

import (
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/shopspring/decimal"
)

func TestPreferred(t *testing.T) {
	const api, csv = "application/vnd.api+json", "text/csv"
	for _, tc := range []struct {
		accept []string
		want   string
		ok     bool
	}{
		{nil, api, true},
		{[]string{"*/*"}, api, true},
		{[]string{"text/csv"}, csv, true},
		{[]string{"text/*"}, csv, true},
		{[]string{"text/csv;q=0.5, application/vnd.api+json"}, api, true},
		{[]string{"text/csv, application/vnd.api+json;q=0.5"}, csv, true},
		{[]string{"text/csv", "*/*;q=0.1"}, csv, true},
		{[]string{"application/*, text/csv"}, csv, true}, // equal q: the exact match wins
		{[]string{"application/vnd.api+json; ext=\"x\", text/csv;q=0.1"}, csv, true},
		{[]string{"text/csv; charset=utf-8"}, csv, true},
		{[]string{"text/csv;q=0", "text/html"}, "", false},
		{[]string{"image/png"}, "", false},
	} {
		got, ok := httpapi.Preferred(tc.accept, api, csv)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Preferred(%q) = %q, %v; want %q, %v", tc.accept, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMoney(t *testing.T) {
	for in, want := range map[string]string{"2620": "2620.00", "102.8": "102.80", "0": "0.00", "141.6625": "141.6625", "13656.26": "13656.26"} {
		if got := httpapi.Money(decimal.RequireFromString(in)); string(got) != want {
			t.Errorf("Money(%s) = %s, want %s", in, got, want)
		}
	}
}
