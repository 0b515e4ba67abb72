package v1_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSearch: ?search= on the resource and composition lists matches codes
// and descriptions containing it, ignoring case and accents, and pages the
// matches.
func TestSearch(t *testing.T) {
	h, u := setup(t)
	other := h.AddUser("Construtora Beta", "bia@beta.example")
	for _, r := range [][2]string{{"000123", "AREIA MÉDIA"}, {"88316", "SERVENTE"}, {"10", "Água potável"}} {
		call(t, h, "POST", base+"/resources", u.Token, `{"code":"`+r[0]+`","description":"`+r[1]+`","type":4,"unit":"UN","local":"MG","pnd":1,"pd":1,"pndi":1,"pdi":1,"status":true}`, 201)
	}
	for _, c := range [][2]string{{"ALV-001", "ALVENARIA ESTRUTURAL"}, {"REV-010", "Revestimento cerâmico"}, {"alv-3", "Alvenaria de vedação"}} {
		call(t, h, "POST", base+"/compositions", u.Token, `{"code":"`+c[0]+`","description":"`+c[1]+`","type":"PARE","unit":"M2","local":"MG","is_sicro":false}`, 201)
	}
	createResource(t, h, other.Token, "0001")
	createComposition(t, h, other.Token, "ALV-001")

	tests := []struct {
		path  string
		total string
		codes []string
	}{
		{base + "/resources?search=agua", "1", []string{"10"}},
		{base + "/resources?search=M%C3%89DIA", "1", []string{"000123"}},
		{base + "/resources?search=0001", "1", []string{"000123"}},
		{base + "/resources?search=", "3", []string{"000123", "88316", "10"}},
		{base + "/compositions?search=alvenaria", "2", []string{"ALV-001", "alv-3"}},
		{base + "/compositions?search=ALV&per_page=1&page=2", "2", []string{"alv-3"}},
		{base + "/compositions?search=ceramico", "1", []string{"REV-010"}},
		{base + "/compositions?search=nada", "0", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			body := call(t, h, "GET", tt.path, u.Token, "", 200)
			if body["total"] != num(tt.total) {
				t.Errorf("total = %v, want %s", body["total"], tt.total)
			}
			codes := []string{}
			for _, r := range body["records"].([]any) {
				codes = append(codes, r.(map[string]any)["code"].(string))
			}
			if diff := cmp.Diff(tt.codes, codes); diff != "" {
				t.Errorf("codes (-want +got):\n%s", diff)
			}
		})
	}
}
