package v1_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestListPagination(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")
	const n = 12
	codes := map[string][]string{}
	for i := 0; i < n; i++ {
		code := fmt.Sprintf("%04d", i+1)
		g := call(t, h, "POST", base+"/groups", u.Token, fmt.Sprintf(`{"description":"Grupo %d"}`, i+1), 201)
		codes["groups"] = append(codes["groups"], g["description"].(string))
		codes["resources"] = append(codes["resources"], createResource(t, h, u.Token, code)["code"].(string))
		codes["compositions"] = append(codes["compositions"], createComposition(t, h, u.Token, code)["code"].(string))
	}
	// Another company's records are never listed.
	call(t, h, "POST", base+"/groups", other.Token, `{"description":"Grupo da Beta"}`, 201)
	createResource(t, h, other.Token, "9999")
	createComposition(t, h, other.Token, "9999")

	tests := []struct {
		query          string
		page, perPage  int
		first, records int // index of the first record, number of records
	}{
		{"", 1, 10, 0, 10},
		{"?page=1", 1, 10, 0, 10},
		{"?page=2", 2, 10, 10, 2},
		{"?page=3", 3, 10, 0, 0},
		{"?page=99999999999", 99999999999, 10, 0, 0},
		{"?page=3&per_page=5", 3, 5, 10, 2},
		{"?per_page=1&page=12", 12, 1, 11, 1},
		{"?per_page=1000", 1, 100, 0, 12},
		{"?per_page=100", 1, 100, 0, 12},
	}
	for _, list := range []string{"groups", "resources", "compositions"} {
		key := "code"
		if list == "groups" {
			key = "description"
		}
		for _, tt := range tests {
			t.Run(list+tt.query, func(t *testing.T) {
				got := call(t, h, "GET", base+"/"+list+tt.query, u.Token, "", 200)
				if diff := cmp.Diff([]string{"current_page", "per_page", "records", "total"}, keys(got)); diff != "" {
					t.Errorf("envelope keys (-want +got):\n%s", diff)
				}
				want := map[string]any{"total": num("12"), "per_page": num(fmt.Sprint(tt.perPage)), "current_page": num(fmt.Sprint(tt.page))}
				records, ok := got["records"].([]any)
				if !ok {
					t.Fatalf("records is %v, not an array", got["records"])
				}
				delete(got, "records")
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("envelope (-want +got):\n%s", diff)
				}
				gotCodes := []string{}
				for _, r := range records {
					gotCodes = append(gotCodes, r.(map[string]any)[key].(string))
				}
				wantCodes := codes[list][tt.first : tt.first+tt.records]
				if diff := cmp.Diff(wantCodes, gotCodes); diff != "" {
					t.Errorf("records (-want +got):\n%s", diff)
				}
			})
		}
		for _, query := range []string{"?page=0", "?page=-1", "?page=x", "?page=1.5", "?per_page=0", "?per_page=-5", "?per_page=ten"} {
			t.Run(list+query, func(t *testing.T) {
				field := "page"
				if strings.HasPrefix(query, "?per_page") {
					field = "per_page"
				}
				checkError(t, call(t, h, "GET", base+"/"+list+query, u.Token, "", 400), field)
			})
		}
	}
}
