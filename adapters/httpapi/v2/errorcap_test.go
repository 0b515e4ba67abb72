package v2_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/domain"
)

// budgetOfLines is a budget over the SINAPI MG 08/2026 sample holding n lines
// made by line(i).
func budgetOfLines(n int, line func(i int) string) string {
	var b strings.Builder
	b.WriteString(`{"code":"BIG","description":"x","location":"MG","banks":[{"name":"SINAPI","location":"MG","version":"08/2026"}],"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(line(i))
	}
	b.WriteString(`]}`)
	return b.String()
}

// TestFieldErrorsCapped checks that a write with more than
// domain.MaxFieldErrors bad fields answers the first ones and one last
// error object counting the others (meta.omitted_errors), exactly, when
// the problems are found by the use case alone and when the decoder's
// (a quantity that is not a number) are merged with the use case's (the
// quantity's own error left out, as always); and that nothing is written.
func TestFieldErrorsCapped(t *testing.T) {
	h := apitest.New(t)
	u := h.AddUser("Construtora Alfa", "ana@alfa.com.br")
	zero := func(int) string {
		return `{"kind":"composition","bank":"SINAPI","code":"89306","quantity":0}`
	}
	cases := []struct {
		name    string
		body    string
		listed  []string // pointers, in order
		omitted int
	}{
		{"exactly the cap: no marker", budgetOfLines(domain.MaxFieldErrors, zero), pointers(0, domain.MaxFieldErrors, "quantity"), 0},
		{"one error a line", budgetOfLines(1000, zero), pointers(0, domain.MaxFieldErrors, "quantity"), 900},
		{"two a line, the decoder's and the use case's", budgetOfLines(1000, func(i int) string {
			return fmt.Sprintf(`{"kind":"composition","bank":"SINAPI","code":"Z%d","quantity":"x"}`, i)
		}), pointers(0, domain.MaxFieldErrors, "quantity"), 1900},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := h.Do("POST", budgets, u.Token, c.body)
			doc := expect(t, r, 422)
			list := doc["errors"].([]any)
			var got []string
			for _, e := range list[:min(len(list), domain.MaxFieldErrors)] {
				o := e.(obj)
				src, _ := o["source"].(obj)
				got = append(got, str(src["pointer"]))
			}
			if strings.Join(got, " ") != strings.Join(c.listed, " ") {
				t.Errorf("listed pointers:\n got %v\nwant %v", got, c.listed)
			}
			if c.omitted == 0 {
				if len(list) != len(c.listed) {
					t.Errorf("%d error objects, want %d", len(list), len(c.listed))
				}
				return
			}
			if len(list) != domain.MaxFieldErrors+1 {
				t.Fatalf("%d error objects, want %d and the marker", len(list), domain.MaxFieldErrors)
			}
			last := list[len(list)-1].(obj)
			meta, _ := last["meta"].(obj)
			if last["source"] != nil || last["code"] != "invalid" || num(t, meta["omitted_errors"]) != strconv.Itoa(c.omitted) {
				t.Errorf("marker %v, want omitted_errors %d", last, c.omitted)
			}
			if want := fmt.Sprintf("and %d more errors (only the first 100 are listed)", c.omitted); last["detail"] != want {
				t.Errorf("marker detail %q, want %q", last["detail"], want)
			}
		})
	}
	if n := total(t, expect(t, h.Do("GET", budgets, u.Token, ""), 200)); n != "0" {
		t.Errorf("the refused writes stored %s budgets", n)
	}
}

// pointers are the pointers /items/i/field for i in [from, to).
func pointers(from, to int, field string) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, "/items/"+strconv.Itoa(i)+"/"+field)
	}
	return out
}
