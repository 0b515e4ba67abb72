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

// PriceHistorySVG draws a small line chart of a price history: the editions
// in time order along the x axis, the price on the y axis (from 0), one
// point per priced edition with its value, joined by a line; an edition
// without a price of the regime has a hollow mark on the axis. The title
// and description name the item, state and regime.
func PriceHistorySVG(w io.Writer, h *domain.PriceHistory) error {
	const width, height, left, right, top, bottom = 640.0, 320.0, 72.0, 24.0, 48.0, 56.0
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
		return left + float64(i)*plotW/float64(n-1)
	}
	y := func(v float64) float64 { return top + plotH - v/axisTop*plotH }
	bw := bufio.NewWriter(w)
	pr := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	title := fmt.Sprintf("%s %s %s — %s", h.Bank, h.State, h.Code, RegimeName(h.Regime))
	pr(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	pr(`<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="title desc">`+"\n", f(width), f(height), f(width), f(height))
	pr("<title id=\"title\">Histórico de preços: %s</title>\n", esc(title))
	pr("<desc id=\"desc\">%s (%s): %d data-base(s)</desc>\n", esc(shorten(h.Description, 120)), esc(h.Unit), n)
	pr(`<rect x="0" y="0" width="%s" height="%s" fill="#fff"/>`+"\n", f(width), f(height))
	pr(`<text x="%s" y="24" font-family="sans-serif" font-size="14" fill="#222">%s</text>`+"\n", f(left), esc(title))
	for v := 0.0; v <= axisTop+step/2; v += step {
		pr(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(left), f(y(v)), f(width-right), f(y(v)))
		pr(`<text class="tick" x="%s" y="%s" font-family="sans-serif" font-size="11" text-anchor="end" fill="#555">%s</text>`+"\n", f(left-6), f(y(v)+4), esc(axisMoney(v, step)))
	}
	var pts []string
	for i, p := range h.Points {
		if p.Priced {
			pts = append(pts, f(x(i))+","+f(y(p.Price.InexactFloat64())))
		}
	}
	if len(pts) > 1 {
		pr(`<polyline class="line" fill="none" stroke="#1f77b4" stroke-width="2" points="%s"/>`+"\n", strings.Join(pts, " "))
	}
	for i, p := range h.Points {
		label := p.Month
		if p.Region != "" {
			label += " " + p.Region
		}
		pr(`<text class="month" x="%s" y="%s" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#555">%s</text>`+"\n", f(x(i)), f(height-bottom+18), esc(label))
		if !p.Priced {
			pr(`<circle class="unpriced" cx="%s" cy="%s" r="4" fill="#fff" stroke="#999"><title>%s: sem preço no regime</title></circle>`+"\n", f(x(i)), f(y(0)), esc(label))
			continue
		}
		pr(`<circle class="point" cx="%s" cy="%s" r="4" fill="#1f77b4"><title>%s: R$ %s</title></circle>`+"\n", f(x(i)), f(y(p.Price.InexactFloat64())), esc(label), brl(p.Price))
		pr(`<text class="value" x="%s" y="%s" font-family="sans-serif" font-size="11" text-anchor="middle" fill="#222">%s</text>`+"\n", f(x(i)), f(y(p.Price.InexactFloat64())-8), brl(p.Price))
	}
	pr("</svg>\n")
	return bw.Flush()
}
