package reports_test

import (
	"bytes"
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
)

// The price-history chart as a person reads it: the item's code, whole
// description and unit in the heading; axis titles, R$ on the value axis;
// the line broken at an edition without a price, whose hollow mark is below
// the zero line (never a price of 0), and a legend that says so.
func TestPriceHistoryChartReads(t *testing.T) {
	h := priceHistory()
	h.Description = "ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL DE 9X19X19 CM (ESPESSURA 9 CM) E ARGAMASSA DE ASSENTAMENTO"
	// 05 priced, 06 without a price, 07 and 08 priced, 09 without.
	h.Points = append([]domain.PricePoint{{Month: "05/2026", Price: dec("104.5"), Priced: true}, {Month: "06/2026"}}, h.Points...)
	var buf bytes.Buffer
	if err := reports.PriceHistorySVG(&buf, h); err != nil {
		t.Fatal(err)
	}
	type text struct {
		Class string `xml:"class,attr"`
		Body  string `xml:",chardata"`
	}
	var svg struct {
		Texts []text `xml:"text"`
		Lines []struct {
			Class string `xml:"class,attr"`
			Y1    string `xml:"y1,attr"`
		} `xml:"line"`
		Circles []struct {
			Class string `xml:"class,attr"`
			CY    string `xml:"cy,attr"`
		} `xml:"circle"`
		Polyline []struct {
			Points string `xml:"points,attr"`
		} `xml:"polyline"`
		Legend struct {
			Texts []text `xml:"text"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &svg); err != nil {
		t.Fatalf("chart is not XML: %v", err)
	}
	var heading, axes []string
	for _, tx := range svg.Texts {
		switch tx.Class {
		case "heading":
			heading = append(heading, tx.Body)
		case "axis-title":
			axes = append(axes, tx.Body)
		}
	}
	if got, want := strings.Join(heading, " "), "89306 — "+h.Description+" (M2)"; got != want {
		t.Errorf("heading %q, want %q", got, want)
	}
	if strings.Join(axes, "|") != "Preço unitário (R$/M2)|Data-base (edição do banco)" {
		t.Errorf("axis titles %q", axes)
	}
	var legend []string
	for _, tx := range svg.Legend.Texts {
		legend = append(legend, tx.Body)
	}
	if l := strings.Join(legend, "|"); !strings.Contains(l, "(R$)") || !strings.Contains(l, "sem preço no regime") {
		t.Errorf("legend %q", legend)
	}
	// One line per run of priced editions (05 alone has none): 07–08.
	if len(svg.Polyline) != 1 || len(strings.Fields(svg.Polyline[0].Points)) != 2 {
		t.Errorf("lines %+v, want one of 07 and 08", svg.Polyline)
	}
	var zero float64
	for _, l := range svg.Lines {
		if l.Class == "axis" {
			zero, _ = strconv.ParseFloat(l.Y1, 64)
		}
	}
	unpriced := 0
	for _, c := range svg.Circles {
		cy, _ := strconv.ParseFloat(c.CY, 64)
		if c.Class == "unpriced" {
			unpriced++
			if zero == 0 || cy <= zero {
				t.Errorf("an edition without a price is drawn at y %v, on or above the zero line at %v", cy, zero)
			}
		}
	}
	if unpriced != 2 {
		t.Errorf("%d marks without a price, want 2", unpriced)
	}
}
