package v1

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

func TestFieldName(t *testing.T) {
	tests := []struct {
		ptr   string
		table map[string]string
		want  string
	}{
		{"/code", nil, "code"},
		{"", nil, "base"},
		{"/items", nil, "items"},
		{"/items/2/code", nil, "items[2].code"},
		{"/items/qty", nil, "items.qty"},
		{"/locals/MG/pnd", nil, "locals[MG].pnd"},
		{"/locals/MG", nil, "locals[MG]"},
		{"/a~1b/c~0d", nil, "a/b.c~d"},
		{"/items/0/quantity", map[string]string{"quantity": "qty"}, "items[0].qty"},
		{"/banks/1/location", map[string]string{"banks": "bases", "location": "local"}, "bases[1].local"},
		{"/banks/1", map[string]string{"banks": "bases"}, "bases[1]"},
		{"/state", map[string]string{"state": "local"}, "local"},
	}
	for _, tt := range tests {
		if got := fieldName(tt.ptr, tt.table); got != tt.want {
			t.Errorf("fieldName(%q) = %q, want %q", tt.ptr, got, tt.want)
		}
	}
}

func TestRemoveFields(t *testing.T) {
	m := removeFields(2)
	tests := map[string][]string{
		"/items":        {"compositions", "resources"},
		"/items/0/code": {"compositions[0].code"},
		"/items/1/code": {"compositions[1].code"},
		"/items/2/code": {"resources[0].code"},
		"/items/5/code": {"resources[3].code"},
		"/code":         {"code"},
	}
	for ptr, want := range tests {
		if diff := cmp.Diff(want, m(ptr)); diff != "" {
			t.Errorf("removeFields(2)(%q) (-want +got):\n%s", ptr, diff)
		}
	}
}

func TestNumberKeepsEveryDigit(t *testing.T) {
	for _, s := range []string{"0", "113.33", "0.0000001", "123456789012345.1234567891", "1e3", "1.50", `"2.5"`, `" 7 "`, `"1e2"`} {
		var n number
		if err := json.Unmarshal([]byte(s), &n); err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		text := strings.TrimSpace(strings.Trim(s, `"`))
		if !n.Set || n.Problem != "" || !n.D.Equal(domain.Dec(text)) || n.D.Exponent() != domain.Dec(text).Exponent() {
			t.Errorf("%s decoded as %v (set %v, problem %q)", s, n.D, n.Set, n.Problem)
		}
	}
	for _, s := range []string{`"2,5"`, `""`, `"NaN"`, `"Infinity"`, `true`, `[1]`, `{"a":1}`, `-1.5`, `1e400`, `1e-11`, `1000000000000000`} {
		var n number
		if err := json.Unmarshal([]byte(s), &n); err != nil || n.Set || n.Problem == "" {
			t.Errorf("%s: accepted as a number (err %v, set %v, %v)", s, err, n.Set, n.D)
		}
	}
	var n number
	if err := json.Unmarshal([]byte(`null`), &n); err != nil || n.Set || n.Problem != "" {
		t.Errorf("null: err %v, set %v, problem %q", err, n.Set, n.Problem)
	}
}

// FuzzDecoders checks that the v1 request decoders never panic, and that a
// price they accept is a non-nil exact decimal.
func FuzzDecoders(f *testing.F) {
	for _, s := range []string{
		`{"locals":{"MG":{"pnd":1.5,"pd":2}}}`, `{"locals":{"AL":19.5057}}`, `{"locals":null}`,
		`{"items":[{"bank":"SINAPI","code":"88309","qty":1.1152}]}`, `{"items":[1,"x",null]}`,
		`{"compositions":[{"code":"1"}],"resources":[{"code":"2"}]}`, `{"bases":[{"name":"SINAPI","status":true}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var r resourceUpdateRequest
		if json.Unmarshal([]byte(s), &r) == nil {
			for _, line := range r.Locals {
				_ = line.line().PND.String()
			}
		}
		var a addItemsRequest
		_ = json.Unmarshal([]byte(s), &a)
		var b addBasesRequest
		_ = json.Unmarshal([]byte(s), &b)
		var rm removeItemsRequest
		_ = json.Unmarshal([]byte(s), &rm)
		var c compositionUpdateRequest
		_ = json.Unmarshal([]byte(s), &c)
	})
}
