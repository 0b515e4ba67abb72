package reports

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/costdb/costdb/domain"
)

var historyHeader = []string{"Banco", "UF", "Código", "Descrição", "Unidade", "Regime", "Data-base", "Região", "Preço", "Situação"}

// RegimeName is the regime as a budget sheet writes it.
func RegimeName(r domain.Regime) string {
	if r == domain.Desonerado {
		return "Desonerado"
	}
	return "Não desonerado"
}

// PriceHistoryCSV writes a price history: one row per edition, oldest
// first; a point without a price of the regime has an empty price and
// "sem preço no regime".
func PriceHistoryCSV(w io.Writer, h *domain.PriceHistory, opts ...CSVOption) error {
	t, err := newTable(w, historyHeader, opts...)
	if err != nil {
		return err
	}
	for _, p := range h.Points {
		cells := map[int]string{0: h.Bank, 1: h.State, 2: t.code(h.Code), 3: text(h.Description), 4: t.code(h.Unit),
			5: RegimeName(h.Regime), 6: t.month(p.Month), 7: t.code(p.Region), 8: priceOrEmpty(p.Price, !p.Priced)}
		if !p.Priced {
			cells[9] = "sem preço no regime"
		}
		if err := t.row(cells); err != nil {
			return err
		}
	}
	return t.flush()
}

// PriceHistorySVG draws a line chart of a price history, as it is read
// by a person: a title naming the item (code, description wrapped, never
// cut, and unit) with the bank, state and regime under it; the editions in
// time order along the x axis ("Data-base"), the unit price in R$ on the y
// axis (from 0, "Preço unitário (R$/<unit>)"); one point per priced
// edition with its value, joined by a line that is broken where an
// edition has no price of the regime. Such an edition is not drawn as a
// price: its mark is a hollow circle in the band under the axis, with a
// dashed guide up through the plot, and the legend says what it means.
func PriceHistorySVG(w io.Writer, h *domain.PriceHistory) error {
	const width, left, right, bottom, pad = 720.0, 92.0, 32.0, 92.0, 36.0
	heading := wrapWords(h.Code+" — "+h.Description+" ("+h.Unit+")", 68)
	top := 40.0 + 18*float64(len(heading)) + 34 // title lines, subtitle, legend
	height := top + 220 + bottom
	plotW, plotH := width-left-right, height-top-bottom
	var max float64
	for _, p := range h.Points {
		if v := p.Price.InexactFloat64(); p.Priced && v > max {
			max = v
		}
	}
	step, axisTop := niceScale(max)
	n := len(h.Points)
	x := func(i int) float64 {
		if n == 1 {
			return left + plotW/2
		}
		return left + pad + float64(i)*(plotW-2*pad)/float64(n-1)
	}
	y := func(v float64) float64 { return top + plotH - v/axisTop*plotH }
	base := y(0)
	bw := bufio.NewWriter(w)
	pr := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	title := fmt.Sprintf("%s %s %s — %s", h.Bank, h.State, h.Code, RegimeName(h.Regime))
	const font = `font-family="sans-serif"`
	pr(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	pr(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="title desc">`+"\n", f(width), f(height), f(width), f(height))
	pr("<title id=\"title\">Histórico de preços: %s</title>\n", esc(title))
	pr("<desc id=\"desc\">%s (%s): %d data-base(s)</desc>\n", esc(h.Description), esc(h.Unit), n)
	pr(`<rect x="0" y="0" width="%s" height="%s" fill="#fff"/>`+"\n", f(width), f(height))
	// The heading: the item, then where and in which regime.
	for i, l := range heading {
		pr(`<text class="heading" x="24" y="%s" %s font-size="13" font-weight="bold" fill="#222">%s</text>`+"\n", f(28+18*float64(i)), font, esc(l))
	}
	sub := 28 + 18*float64(len(heading))
	pr(`<text class="subtitle" x="24" y="%s" %s font-size="12" fill="#555">Histórico de preços · %s %s · %s</text>`+"\n", f(sub), font, esc(h.Bank), esc(h.State), RegimeName(h.Regime))
	// The legend, above the plot.
	ly, lx := sub+22, left
	pr(`<g class="legend" %s font-size="11" fill="#333">`+"\n", font)
	pr(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f77b4" stroke-width="2"/><circle cx="%s" cy="%s" r="4" fill="#1f77b4"/>`, f(lx), f(ly-4), f(lx+24), f(ly-4), f(lx+12), f(ly-4))
	pr(`<text x="%s" y="%s">preço unitário na data-base (R$)</text>`+"\n", f(lx+30), f(ly))
	pr(`<circle cx="%s" cy="%s" r="5" fill="#fff" stroke="#888" stroke-width="1.5"/>`, f(lx+238), f(ly-4))
	pr(`<text x="%s" y="%s">sem preço no regime: fora da escala, linha interrompida</text>`+"\n", f(lx+248), f(ly))
	pr("</g>\n")
	// Value axis: grid, ticks, title.
	for v := 0.0; v <= axisTop+step/2; v += step {
		pr(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(left), f(y(v)), f(width-right), f(y(v)))
		pr(`<text class="tick" x="%s" y="%s" %s font-size="11" text-anchor="end" fill="#555">%s</text>`+"\n", f(left-6), f(y(v)+4), font, esc(axisMoney(v, step)))
	}
	pr(`<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#888"/>`+"\n", f(left), f(base), f(width-right), f(base))
	pr(`<text class="axis-title" x="0" y="0" transform="translate(%s %s) rotate(-90)" %s font-size="12" text-anchor="middle" fill="#333">%s</text>`+"\n",
		f(24), f(top+plotH/2), font, esc("Preço unitário (R$/"+h.Unit+")"))
	pr(`<text class="axis-title" x="%s" y="%s" %s font-size="12" text-anchor="middle" fill="#333">Data-base (edição do banco)</text>`+"\n", f(left+plotW/2), f(height-14), font)
	// The line, broken at the editions without a price.
	var run []string
	flush := func() {
		if len(run) > 1 {
			pr(`<polyline class="line" fill="none" stroke="#1f77b4" stroke-width="2" points="%s"/>`+"\n", strings.Join(run, " "))
		}
		run = run[:0]
	}
	for i, p := range h.Points {
		if !p.Priced {
			flush()
			continue
		}
		run = append(run, f(x(i))+","+f(y(p.Price.InexactFloat64())))
	}
	flush()
	for i, p := range h.Points {
		label := p.Month
		if p.Region != "" {
			label += " " + p.Region
		}
		pr(`<text class="month" x="%s" y="%s" %s font-size="11" text-anchor="middle" fill="#555">%s</text>`+"\n", f(x(i)), f(base+38), font, esc(label))
		if !p.Priced {
			pr(`<line class="gap" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#aaa" stroke-dasharray="3 3"/>`+"\n", f(x(i)), f(top), f(x(i)), f(base+12))
			pr(`<circle class="unpriced" cx="%s" cy="%s" r="5" fill="#fff" stroke="#888" stroke-width="1.5"><title>%s: sem preço no regime</title></circle>`+"\n", f(x(i)), f(base+18), esc(label))
			pr(`<text class="unpriced-label" x="%s" y="%s" %s font-size="10" text-anchor="middle" fill="#888">sem preço</text>`+"\n", f(x(i)), f(base+52), font)
			continue
		}
		pr(`<circle class="point" cx="%s" cy="%s" r="4" fill="#1f77b4"><title>%s: R$ %s</title></circle>`+"\n", f(x(i)), f(y(p.Price.InexactFloat64())), esc(label), brl(p.Price))
		pr(`<text class="value" x="%s" y="%s" %s font-size="11" text-anchor="middle" fill="#222">%s</text>`+"\n", f(x(i)), f(y(p.Price.InexactFloat64())-8), font, brl(p.Price))
	}
	pr("</svg>\n")
	return bw.Flush()
}

// wrapWords breaks s into lines of at most n characters at spaces (a word
// longer than n has a line of its own), keeping every word.
func wrapWords(s string, n int) []string {
	var lines []string
	var cur []rune
	for _, word := range strings.Fields(s) {
		wr := []rune(word)
		if len(cur) > 0 && len(cur)+1+len(wr) > n {
			lines = append(lines, string(cur))
			cur = cur[:0]
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, wr...)
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}
