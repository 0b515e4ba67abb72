package v2_test

import (
	"context"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles/sample"
	"github.com/costdb/costdb/adapters/httpapi/apitest"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
	"github.com/google/go-cmp/cmp"
)

// importMGJuly imports a hand-made SINAPI MG 07/2026: the real 08/2026
// sample under another month, with 89306 (não desonerado) at 110.00, so
// that MG has two editions.
func importMGJuly(t *testing.T, h *apitest.Harness) {
	t.Helper()
	eds, err := sample.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eds {
		if e.Edition.Bank != "SINAPI" {
			continue
		}
		e.Edition.Month = "07/2026"
		for _, c := range e.Compositions {
			if c.Code == "89306" {
				c.Cost.PND = domain.Dec("110.00")
			}
		}
		if _, err := h.App.ImportEditions(context.Background(), []app.EditionData{{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions}}); err != nil {
			t.Fatal(err)
		}
	}
}

type point struct{ Version, Price string }

func points(t *testing.T, doc obj) []point {
	t.Helper()
	var out []point
	for _, p := range attrs(t, doc)["points"].([]any) {
		o := p.(obj)
		pt := point{Version: str(o["version"])}
		if o["price"] != nil {
			pt.Price = num(t, o["price"])
		}
		out = append(out, pt)
	}
	return out
}

func TestPriceHistory(t *testing.T) {
	h := apitest.New(t)
	tok := h.AddUser("Construtora Alfa", "ana@alfa.com.br").Token
	hist := base + "/price_history/"
	get := func(q string) obj { return expect(t, h.Do("GET", hist+q, tok, ""), 200) }

	if got := points(t, get("89306?bank=SINAPI&location=MG")); cmp.Diff([]point{{"08/2026", "113.33"}}, got) != "" {
		t.Errorf("one edition: %v", got)
	}
	importMGJuly(t, h)
	importPE(t, h)
	tests := []struct {
		name, query string
		want        []point
	}{
		{"two editions, oldest first", "89306?bank=sinapi&location=mg", []point{{"07/2026", "110.00"}, {"08/2026", "113.33"}}},
		{"desonerado", "89306?bank=SINAPI&location=MG&desonerado=true", []point{{"07/2026", "110.13"}, {"08/2026", "110.13"}}},
		{"another state", "89306?bank=SINAPI&location=PE", []point{{"10/2024", "89.71"}}},
		{"a resource, desonerado", "34586?bank=SINAPI&location=PE&desonerado=true&kind=resource", []point{{"10/2024", "1.82"}}},
		// PE 10/2024 has no não desonerado insumo prices: a point without one.
		{"a resource without the regime", "34586?bank=SINAPI&location=PE", []point{{"10/2024", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, points(t, get(tt.query))); d != "" {
				t.Errorf("points (-want +got):\n%s", d)
			}
		})
	}
	a := attrs(t, get("89306?bank=SINAPI&location=MG"))
	if a["kind"] != "composition" || a["unit"] != "M2" || !strings.HasPrefix(str(a["description"]), "ALVENARIA ESTRUTURAL") {
		t.Errorf("attributes %v", a)
	}

	// CSV.
	r := h.Do("GET", hist+"89306?bank=SINAPI&location=MG&format=csv", tok, "")
	rows := readCSVBody(t, r.Body)
	if r.Status != 200 || len(rows) != 3 || rows[1][6] != "07/2026" || rows[1][8] != "110,00" || rows[2][8] != "113,33" || rows[2][5] != "Não desonerado" {
		t.Errorf("CSV %d %v", r.Status, rows)
	}
	// The chart: a valid SVG with one point per priced edition.
	r = h.Do("GET", hist+"89306/chart.svg?bank=SINAPI&location=MG", tok, "", "Accept", "image/svg+xml")
	if r.Status != 200 || r.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("chart: %d %s", r.Status, r.Header.Get("Content-Type"))
	}
	var svg struct {
		Title   string `xml:"title"`
		Circles []struct {
			Class string `xml:"class,attr"`
			Title string `xml:"title"`
		} `xml:"circle"`
		Polyline []struct {
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
	}
	if err := xml.Unmarshal(r.Body, &svg); err != nil {
		t.Fatalf("chart is not XML: %v", err)
	}
	var titles []string
	for _, c := range svg.Circles {
		titles = append(titles, c.Class+" "+c.Title)
	}
	if d := cmp.Diff([]string{"point 07/2026: R$ 110,00", "point 08/2026: R$ 113,33"}, titles); d != "" || len(svg.Polyline) != 1 ||
		!strings.Contains(svg.Title, "SINAPI MG 89306") {
		t.Errorf("chart %+v\n%s", svg, d)
	}

	// Errors.
	for _, tc := range []struct {
		q      string
		status int
		want   []apiError
	}{
		{"89306?location=MG", 400, []apiError{{"400", "bad_request", "", "bank"}}},
		{"89306?bank=SINAPI&location=XX", 400, []apiError{{"400", "bad_request", "", "location"}}},
		{"89306?bank=SINAPI&location=MG&kind=x&desonerado=1", 400, []apiError{{"400", "bad_request", "", "kind"}, {"400", "bad_request", "", "desonerado"}}},
		{"00000?bank=SINAPI&location=MG", 404, []apiError{{"404", "not_found", "", ""}}},
	} {
		if got := errorsOf(t, h.Do("GET", hist+tc.q, tok, ""), tc.status); cmp.Diff(tc.want, got) != "" {
			t.Errorf("%s: %v", tc.q, got)
		}
	}
}
