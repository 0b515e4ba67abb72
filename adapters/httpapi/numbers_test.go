package httpapi_test

import (
	"encoding/json"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
)

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		lenient bool
		want    string // the value, or "!" + the problem
	}{
		{`0`, false, "0"},
		{`-0`, false, "0"},
		{`113.33`, false, "113.33"},
		{`1e3`, false, "1000"},
		{`999999999999999.9999999999`, false, "999999999999999.9999999999"},
		{`1.50000000000000`, false, "1.5"}, // trailing zeros are not places
		{`0e999999999999`, false, "0"},
		{`"2.5"`, true, "2.5"},
		{`" 7 "`, true, "7"},
		{`"0"`, true, "0"},
		{`"2.5"`, false, "!must be a number"},
		{`"2,5"`, true, "!must be a number"},
		{`"NaN"`, true, "!must be a number"},
		{`"Infinity"`, true, "!must be a number"},
		{`"-Infinity"`, true, "!must be a number"},
		{`"0x10"`, true, "!must be a number"},
		{`""`, true, "!must be a number"},
		{`true`, true, "!must be a number"},
		{`[1]`, false, "!must be a number"},
		{`-1`, false, "!must not be negative"},
		{`"-1"`, true, "!must not be negative"},
		{`1e400`, false, "!must have at most 15 digits before the decimal point"},
		{`1e99999999999999999999`, false, "!must have at most 15 digits before the decimal point"},
		{`1000000000000000`, false, "!must have at most 15 digits before the decimal point"},
		{`1e-11`, false, "!must have at most 10 decimal places"},
		{`1e-99999999999999999999`, false, "!must have at most 10 decimal places"},
		{`0.00000000001`, false, "!must have at most 10 decimal places"},
	} {
		d, p := httpapi.ParseNumber([]byte(tc.raw), tc.lenient)
		got := d.String()
		if p != "" {
			got = "!" + p
		}
		if got != tc.want {
			t.Errorf("ParseNumber(%s, lenient %v) = %s, want %s", tc.raw, tc.lenient, got, tc.want)
		}
	}
}

func TestNumRoundsBeyondTenPlaces(t *testing.T) {
	for in, want := range map[string]string{
		"1.5":                   "1.5",
		"0.1234567890":          "0.123456789",
		"0.12345678905":         "0.1234567891",
		"0.123456789049":        "0.123456789",
		"123.00000000000000001": "123",
	} {
		if got := httpapi.Num(decimal.RequireFromString(in)).String(); got != want {
			t.Errorf("Num(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestAnswerNumbersProblem(t *testing.T) {
	for body, bad := range map[string]bool{
		`{"total":999999999999999.99,"n":[0,-5,1.0000000001]}`: false,
		`{"id":"12345678901234567890","s":"a \"1e400\" b"}`:    false,
		`{"total":1000000000000000}`:                           true,
		`{"a":[1,2,{"b":-1234567890123456}]}`:                  true,
		`{"q":0.00000000001}`:                                  true,
		`{"x":"\\","q":12345678901234567}`:                     true,
	} {
		if got := httpapi.AnswerNumbersProblem([]byte(body)) != ""; got != bad {
			t.Errorf("AnswerNumbersProblem(%s) found a problem: %v, want %v", body, got, bad)
		}
	}
}

// FuzzParseNumber checks that whatever ParseNumber accepts is within the
// bounds and not negative, and that it never panics.
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{`0`, `1e400`, `"2.5"`, `-0.0e-5`, `123456789012345.1234567890`, `"1e-10"`, `9e14`} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, lenient bool) {
		d, p := httpapi.ParseNumber([]byte(raw), lenient)
		if p != "" {
			return
		}
		if d.IsNegative() || domain.NumberBoundsProblem(d) != "" {
			t.Errorf("ParseNumber(%s) accepted %s", raw, d)
		}
	})
}

type inner struct {
	Q httpapi.StrictNumber `json:"q"`
}

type embedsUnexported struct {
	inner
}

func TestNumberErrorsWalk(t *testing.T) {
	var v struct {
		A httpapi.StrictNumber              `json:"a"`
		L []map[string]httpapi.StrictNumber `json:"l"`
		I httpapi.LenientInteger            `json:"i"`
		S string                            `json:"s"`
	}
	if err := json.Unmarshal([]byte(`{"a":"1","l":[{"x":1},{"y/z":-1}],"i":"2.5","s":"x"}`), &v); err != nil {
		t.Fatal(err)
	}
	got := httpapi.NumberErrors(&v, "/p")
	want := []domain.FieldError{
		{Field: "/p/a", Message: "must be a number"},
		{Field: "/p/l/1/y~1z", Message: "must not be negative"},
		{Field: "/p/i", Message: "must be a whole number"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NumberErrors (-want +got):\n%s", diff)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("an unexported embedded struct with numbers was skipped silently")
		}
	}()
	httpapi.NumberErrors(embedsUnexported{}, "")
}
