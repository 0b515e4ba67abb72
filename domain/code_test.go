package domain_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/domain"
)

// A code has at most 60 characters (not bytes), none of them a control
// character (C0, DEL or C1), and no space at either end: what the OpenAPI
// document's pattern and maxLength on every code say.
func TestCodeRules(t *testing.T) {
	for _, tc := range []struct {
		code string
		ok   bool
	}{
		{"C-1", true},
		{strings.Repeat("Ç", 60), true}, // 120 bytes, 60 characters
		{strings.Repeat("Ç", 61), false},
		{"A B", true},
		{"C\x01", false},
		{"C\x7f1", false},
		{"C\u00851", false}, // NEL, a C1 control
		{"C\u009f", false},
		{"\tC", false},
		{" C", false},
		{"C ", false},
	} {
		c := validComposition()
		c.Code = tc.code
		err := c.Validate()
		if tc.ok != (err == nil) {
			t.Errorf("code %q: %v, want ok %v", tc.code, err, tc.ok)
		}
		if e, _ := err.(*domain.Error); err != nil && (e == nil || len(e.Fields) != 1 || e.Fields[0].Field != "/code") {
			t.Errorf("code %q: %v, want /code", tc.code, err)
		}
	}
}
