package domain_test

import (
	"reflect"
	"sort"
	"testing"

	"github.com/costdb/costdb/domain"
)

func TestSearchWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"BLOCO CERÂMICO VAZADO, 14 X 19 X 39 CM", []string{"BLOCO", "CERAMICO", "VAZADO", "14", "19", "39", "CM"}},
		{"blóco   cerâmico 14x19", []string{"BLOCO", "CERAMICO", "14", "19"}},
		{"TUBO PVC 1/2\" DE ÁGUA-FRIA, 14X19X39CM", []string{"TUBO", "PVC", "1", "2", "AGUA", "FRIA", "14", "19", "39", "CM"}},
		{"de com para a e", nil},
		{"ARGAMASSA ARGAMASSA", []string{"ARGAMASSA"}},
	} {
		if got := domain.SearchWords(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("SearchWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseSearch(t *testing.T) {
	desc := domain.SearchWords("ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL DE 14X19X39 CM")
	for _, q := range []string{"BLOCO CERAMICO", "ceramico bloco", "blóco ceramico", "bloco cerâmico 14x19"} {
		sq, err := domain.ParseSearch("q", q)
		if err != nil {
			t.Fatal(err)
		}
		if n := sq.Matched(desc); n != len(sq.Terms) {
			t.Errorf("%q matches %d of %d terms", q, n, len(sq.Terms))
		}
	}
	sq, _ := domain.ParseSearch("q", "bloco 140")
	if n := sq.Matched(desc); n != 1 {
		t.Errorf("bloco 140: matched %d, want 1 (numbers match whole)", n)
	}
	long := make([]byte, domain.MaxSearchQuery+1)
	for i := range long {
		long[i] = 'a'
	}
	for _, q := range []string{"", "   ", "de a", string(long), "aa bb cc dd ee ff gg hh ii jj kk ll mm"} {
		_, err := domain.ParseSearch("q", q)
		if domain.ErrorCode(err) != domain.EINVALID || len(domain.ErrorFields(err)) != 1 || domain.ErrorFields(err)[0].Field != "q" {
			t.Errorf("ParseSearch(%q) = %v, want an EINVALID naming q", q, err)
		}
	}
}

func TestSearchBefore(t *testing.T) {
	aug := &domain.Edition{Bank: "SINAPI", State: "MG", Month: "08/2026"}
	jul := &domain.Edition{Bank: "SINAPI", State: "MG", Month: "07/2026"}
	dec := &domain.Edition{Bank: "SINAPI", State: "MG", Month: "12/2025"}
	hits := []*domain.SearchHit{
		{Edition: dec, Kind: domain.KindResource, Code: "1", Matched: 2, Length: 10},
		{Edition: aug, Kind: domain.KindResource, Code: "1", Matched: 2, Length: 10},
		{Edition: aug, Kind: domain.KindResource, Code: "2", Matched: 1, Length: 5},
		{Edition: jul, Kind: domain.KindComposition, Code: "1", Matched: 2, Length: 10},
		{Edition: aug, Kind: domain.KindResource, Code: "3", Matched: 2, Length: 8},
	}
	sort.Slice(hits, func(i, j int) bool { return domain.SearchBefore(hits[i], hits[j]) })
	var got []string
	for _, h := range hits {
		got = append(got, h.Code+string(h.Kind[0])+h.Edition.Month)
	}
	want := []string{"3r08/2026", "1c07/2026", "1r08/2026", "1r12/2025", "2r08/2026"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}
