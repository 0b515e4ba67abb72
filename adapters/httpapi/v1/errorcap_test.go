package v1_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestFieldErrorsCapped checks that an add-items with more than
// domain.MaxFieldErrors bad items answers the first ones and, in
// errors.base, one message counting the others, exactly, when the
// problems are found by the use case alone and when the decoder's (a qty
// that is not a number) are merged with the use case's; and that nothing
// is written.
func TestFieldErrorsCapped(t *testing.T) {
	h := apitest.NewWithConfig(t, app.Config{MaxItemsPerRequest: 1000})
	u := h.AddUser("Construtora Alfa", "ana@alfa.example")
	cid := id(t, createComposition(t, h, u.Token, "C-1"))
	attachSinapi(t, h, u.Token, cid)
	items := func(n int, item func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = item(i)
		}
		return `{"items":[` + strings.Join(parts, ",") + `]}`
	}
	zero := func(int) string { return `{"bank":"SINAPI","code":"88309","qty":0}` }
	qtys := func(from, step int) []string {
		var out []string
		for i := from; len(out) < domain.MaxFieldErrors; i += step {
			out = append(out, "items["+strconv.Itoa(i)+"].qty")
		}
		return out
	}
	cases := []struct {
		name    string
		body    string
		listed  []string
		omitted int
	}{
		{"exactly the cap: no marker", items(domain.MaxFieldErrors, zero), qtys(0, 1), 0},
		{"one error an item", items(1000, zero), qtys(0, 1), 900},
		// The decoder's errors are listed first, then the use case's.
		{"the decoder's and the use case's", items(1000, func(i int) string {
			if i%2 == 0 {
				return `{"bank":"SINAPI","code":"88309","qty":"x"}`
			}
			return fmt.Sprintf(`{"bank":"SINAPI","code":"Z%d","qty":1}`, i)
		}), qtys(0, 2), 900},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := call(t, h, "POST", base+"/compositions/"+cid+"/add-items", u.Token, c.body, 422)
			errs, _ := body["errors"].(map[string]any)
			listed := 0
			for _, name := range c.listed {
				msgs, _ := errs[name].([]any)
				if len(msgs) != 1 {
					t.Errorf("%s: %v, want one message", name, msgs)
				}
				listed += len(msgs)
			}
			base, _ := errs["base"].([]any)
			if want := 1 + domain.MaxFieldErrors; c.omitted > 0 && (len(errs) != want || listed != domain.MaxFieldErrors) {
				t.Errorf("%d fields named (%d messages listed), want %d and base", len(errs), listed, domain.MaxFieldErrors)
			}
			switch {
			case c.omitted == 0 && (base != nil || len(errs) != domain.MaxFieldErrors):
				t.Errorf("at the cap: %d fields named, base %v", len(errs), base)
			case c.omitted > 0 && (len(base) != 1 || base[0] != fmt.Sprintf("and %d more errors (only the first 100 are listed)", c.omitted)):
				t.Errorf("base %v, want the marker of %d", base, c.omitted)
			}
		})
	}
	got := call(t, h, "GET", base+"/compositions/"+cid, u.Token, "", 200)
	if its, _ := got["items"].([]any); len(its) != 0 {
		t.Errorf("the refused adds wrote %d items", len(its))
	}
}
