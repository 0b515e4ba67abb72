package reports

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/costdb/costdb/domain"
)

// ScheduleCSV writes the physical-financial table (domain.ScheduleTable):
// a row per schedule row (item, type, description, value with BDI, then
// per period its share in % and its value), then the footer rows: the
// periods' totals, their percent of the whole, the accumulated value and
// the accumulated percent (the S curve), each labelled in the description
// column.
func ScheduleCSV(w io.Writer, t *domain.ScheduleTable, opts ...CSVOption) error {
	header := []string{"Item", "Tipo", "Descrição", "Valor com BDI"}
	for _, p := range t.Periods {
		header = append(header, "% "+p.Label, "Valor "+p.Label)
	}
	tb, err := newTable(w, header, opts...)
	if err != nil {
		return err
	}
	cells := map[int]string{}
	for _, r := range t.Rows {
		clear(cells)
		cells[0], cells[2], cells[3] = tb.number(r.Number), text(r.Description), Money(r.Value)
		if r.NodeID != "" {
			cells[1] = KindName(string(r.Kind))
		}
		for k := range r.Cells {
			cells[4+2*k], cells[5+2*k] = Quantity(r.Shares[k]), Money(r.Cells[k])
		}
		if err := tb.row(cells); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		label string
		cell  func(domain.SchedulePeriod) string
		pct   bool
	}{
		{"Total do período", func(p domain.SchedulePeriod) string { return Money(p.Total) }, false},
		{"Percentual do período (%)", func(p domain.SchedulePeriod) string { return Money(p.Percent) }, true},
		{"Total acumulado", func(p domain.SchedulePeriod) string { return Money(p.Accumulated) }, false},
		{"Percentual acumulado (%)", func(p domain.SchedulePeriod) string { return Money(p.AccumulatedPercent) }, true},
	} {
		clear(cells)
		cells[2] = f.label
		if !f.pct && f.label == "Total do período" {
			cells[3] = Money(t.Total)
		}
		for k, p := range t.Periods {
			col := 5 + 2*k
			if f.pct {
				col = 4 + 2*k
			}
			cells[col] = f.cell(p)
		}
		if err := tb.row(cells); err != nil {
			return err
		}
	}
	if err := incompleteFooter(tb, 2, t.Missing); err != nil {
		return err
	}
	return tb.flush()
}

// ScheduleSVG draws the schedule: one bar per period, its height the
// period's total (left axis, R$), and the S curve, the accumulated percent
// at the end of each period (right axis, 0–100%), with axis titles, the
// periods' labels and a <title> on every bar and point. Each bar is a
// <rect class="bar">, the curve a <polyline class="s-curve">.
func ScheduleSVG(w io.Writer, t *domain.ScheduleTable) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	n := len(t.Periods)
	slot := math.Max(slotWidth, 36)
	plotW := math.Min(math.Max(minPlotWidth, float64(n)*slot), maxPlotWidth)
	slot = plotW / float64(max(n, 1))
	width, height := marginLeft+plotW+marginRight, marginTop+plotHeight+90
	top := 0.0
	for _, per := range t.Periods {
		top = math.Max(top, per.Total.InexactFloat64())
	}
	step, maxV := niceScale(top)
	x := func(k int) float64 { return marginLeft + float64(k)*slot }
	yV := func(v float64) float64 { return marginTop + plotHeight - v/maxV*plotHeight }
	yP := func(pc float64) float64 { return marginTop + plotHeight - pc/100*plotHeight }
	b := t.Budget
	title := "Cronograma físico-financeiro — " + b.Code + " " + b.Description
	unit := "meses a partir de " + t.Schedule.Start
	if t.Schedule.Days > 0 {
		unit = fmt.Sprintf("períodos de %d dias a partir de %s", t.Schedule.Days, t.Schedule.Start)
	}
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="chart-title chart-desc" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="12">`+"\n",
		f(width), f(height), f(width), f(height))
	p(`<title id="chart-title">%s</title>`+"\n", esc(title))
	p(`<desc id="chart-desc">%s</desc>`+"\n", esc(fmt.Sprintf("%d períodos (%s); valor total com BDI R$ %s; barras: valor de cada período; linha: percentual acumulado (curva S).", n, unit, brl(t.Total))))
	p(`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f(width), f(height))
	p(`<text x="16" y="26" font-size="16" font-weight="bold" fill="#222">%s</text>`+"\n", esc(shorten(title, int((width-32)/9.5))))
	p(`<text x="16" y="46" fill="#444">%s</text>`+"\n", esc(shorten(fmt.Sprintf("Total com BDI: R$ %s · %d períodos, %s · UF %s", brl(t.Total), n, unit, b.State), int((width-32)/6.6))))
	p(`<g class="legend" font-size="11" fill="#333"><rect x="16" y="62" width="14" height="10" fill="#5b8bd0"/><text x="36" y="71">Valor do período (R$)</text>` +
		`<line x1="200" y1="67" x2="222" y2="67" stroke="#1f3b73" stroke-width="2"/><text x="228" y="71">Percentual acumulado (curva S)</text></g>` + "\n")
	// Grid and bars.
	p(`<g class="grid" stroke="#e3e3e3">`)
	for v := step; v <= maxV+step/1e6; v += step {
		p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(marginLeft), f(yV(v)), f(marginLeft+plotW), f(yV(v)))
	}
	p("</g>\n")
	p(`<g class="bars" fill="#5b8bd0">` + "\n")
	for k, per := range t.Periods {
		h := marginTop + plotHeight - yV(per.Total.InexactFloat64())
		p(`<rect class="bar" x="%s" y="%s" width="%s" height="%s"><title>%s: R$ %s (%s%%)</title></rect>`+"\n",
			f(x(k)+slot*0.15), f(yV(per.Total.InexactFloat64())), f(slot*0.7), f(h), esc(per.Label), brl(per.Total), Money(per.Percent))
	}
	p("</g>\n")
	// The S curve, from 0 at the start to each period's end.
	pts := []string{f(marginLeft) + "," + f(yP(0))}
	for k, per := range t.Periods {
		pts = append(pts, f(x(k+1))+","+f(yP(per.AccumulatedPercent.InexactFloat64())))
	}
	p(`<polyline class="s-curve" fill="none" stroke="#1f3b73" stroke-width="2" points="%s"/>`+"\n", strings.Join(pts, " "))
	p(`<g class="points" fill="#1f3b73">` + "\n")
	for k, per := range t.Periods {
		p(`<circle cx="%s" cy="%s" r="3"><title>%s: %s%% acumulado (R$ %s)</title></circle>`+"\n",
			f(x(k+1)), f(yP(per.AccumulatedPercent.InexactFloat64())), esc(per.Label), Money(per.AccumulatedPercent), brl(per.Accumulated))
	}
	p("</g>\n")
	labels := make([]string, n)
	for k, per := range t.Periods {
		labels[k] = per.Label
	}
	periodAxes(p, plotW, width, height, slot, step, maxV, 100, labels, "Percentual acumulado (%)")
	p("</svg>\n")
	return bw.Flush()
}

// periodAxes draws a period chart's frame: the axes, the money scale on
// the left (step to maxV), the percent scale on the right (0 to topPct by
// 20), the periods' labels under their slots (as many as fit) and the
// three axis titles, the right one rightTitle.
func periodAxes(p func(string, ...any), plotW, width, height, slot, step, maxV, topPct float64, labels []string, rightTitle string) {
	yV := func(v float64) float64 { return marginTop + plotHeight - v/maxV*plotHeight }
	yP := func(pc float64) float64 { return marginTop + plotHeight - pc/topPct*plotHeight }
	x := func(k int) float64 { return marginLeft + float64(k)*slot }
	bottom, right := marginTop+plotHeight, marginLeft+plotW
	p(`<g class="axes" stroke="#333" stroke-width="1"><line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/></g>`+"\n",
		f(marginLeft), f(marginTop), f(marginLeft), f(bottom), f(right), f(marginTop), f(right), f(bottom), f(marginLeft), f(bottom), f(right), f(bottom))
	p(`<g class="y-axis" font-size="11" fill="#333" text-anchor="end">` + "\n")
	for v := 0.0; v <= maxV+step/1e6; v += step {
		p(`<text x="%s" y="%s">%s</text>`+"\n", f(marginLeft-7), f(yV(v)+4), esc(axisMoney(v, step)))
	}
	p("</g>\n")
	p(`<g class="y2-axis" font-size="11" fill="#333">` + "\n")
	for pc := 0; pc <= int(topPct); pc += 20 {
		p(`<text x="%s" y="%s">%d%%</text>`+"\n", f(right+7), f(yP(float64(pc))+4), pc)
	}
	p("</g>\n")
	every := int(math.Ceil(60 / slot))
	p(`<g class="x-axis" font-size="10" fill="#333">` + "\n")
	for k, label := range labels {
		if k%every == 0 {
			cx, cy := x(k)+slot/2, bottom+14
			p(`<text x="%s" y="%s" text-anchor="end" transform="rotate(-35 %s %s)">%s</text>`+"\n", f(cx), f(cy), f(cx), f(cy), esc(label))
		}
	}
	p("</g>\n")
	midY := marginTop + plotHeight/2
	p(`<text class="axis-title" x="%s" y="%s" text-anchor="middle" fill="#222">Período</text>`+"\n", f(marginLeft+plotW/2), f(height-12))
	p(`<text class="axis-title" x="20" y="%s" text-anchor="middle" fill="#222" transform="rotate(-90 20 %s)">Valor do período (R$)</text>`+"\n", f(midY), f(midY))
	xr := width - 16
	p(`<text class="axis-title" x="%s" y="%s" text-anchor="middle" fill="#222" transform="rotate(90 %s %s)">%s</text>`+"\n", f(xr), f(midY), f(xr), f(midY), esc(rightTitle))
}
