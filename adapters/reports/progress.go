package reports

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// ProgressSVG draws a contract's planned against measured: per period the
// planned and the measured value as paired bars, and both accumulated
// percentages (of the planned total) as two S curves on one scale.
func ProgressSVG(w io.Writer, pg *domain.Progress) error {
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	n := len(pg.Periods)
	slot := math.Max(slotWidth, 40)
	plotW := math.Min(math.Max(minPlotWidth, float64(n)*slot), maxPlotWidth)
	slot = plotW / float64(max(n, 1))
	width, height := marginLeft+plotW+marginRight, marginTop+plotHeight+90
	top, topPct := 0.0, 100.0
	for _, per := range pg.Periods {
		top = math.Max(top, math.Max(per.Planned.InexactFloat64(), per.Measured.InexactFloat64()))
		topPct = math.Max(topPct, per.MeasuredPercent.InexactFloat64())
	}
	topPct = math.Ceil(topPct/20) * 20
	step, maxV := niceScale(top)
	x := func(k int) float64 { return marginLeft + float64(k)*slot }
	yV := func(v float64) float64 { return marginTop + plotHeight - v/maxV*plotHeight }
	yP := func(pc float64) float64 { return marginTop + plotHeight - pc/topPct*plotHeight }
	c := pg.Contract
	title := "Previsto × realizado — contrato " + c.Number + " (" + c.Contractor + ")"
	sch := pg.Table.Schedule
	unit := "meses a partir de " + sch.Start
	if sch.Days > 0 {
		unit = fmt.Sprintf("períodos de %d dias a partir de %s", sch.Days, sch.Start)
	}
	last := pg.Periods[n-1]
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="chart-title chart-desc" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="12">`+"\n",
		f(width), f(height), f(width), f(height))
	p(`<title id="chart-title">%s</title>`+"\n", esc(title))
	p(`<desc id="chart-desc">%s</desc>`+"\n", esc(fmt.Sprintf("%d períodos (%s); previsto R$ %s, medido R$ %s (%s%% do previsto); barras: valor previsto e medido de cada período; linhas: percentuais acumulados (curvas S) previsto e medido.",
		n, unit, brl(pg.Planned), brl(pg.Measured), Money(last.MeasuredPercent))))
	p(`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f(width), f(height))
	p(`<text x="16" y="26" font-size="16" font-weight="bold" fill="#222">%s</text>`+"\n", esc(shorten(title, int((width-32)/9.5))))
	p(`<text x="16" y="46" fill="#444">%s</text>`+"\n", esc(shorten(fmt.Sprintf("Previsto: R$ %s · medido: R$ %s (%s%%) · valor atual do contrato: R$ %s · versão %d",
		brl(pg.Planned), brl(pg.Measured), Money(last.MeasuredPercent), brl(pg.Current), c.VersionNumber), int((width-32)/6.6))))
	p(`<g class="legend" font-size="11" fill="#333">` +
		`<rect x="16" y="62" width="14" height="10" fill="#b8c9e6"/><text x="36" y="71">Previsto no período (R$)</text>` +
		`<rect x="196" y="62" width="14" height="10" fill="#e39a4f"/><text x="216" y="71">Medido no período (R$)</text>` +
		`<line x1="370" y1="67" x2="392" y2="67" stroke="#1f3b73" stroke-width="2" stroke-dasharray="6 3"/><text x="398" y="71">Previsto acumulado (%%)</text>` +
		`<line x1="560" y1="67" x2="582" y2="67" stroke="#b3541e" stroke-width="2"/><text x="588" y="71">Medido acumulado (%%)</text></g>` + "\n")
	p(`<g class="grid" stroke="#e3e3e3">`)
	for v := step; v <= maxV+step/1e6; v += step {
		p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(marginLeft), f(yV(v)), f(marginLeft+plotW), f(yV(v)))
	}
	p("</g>\n")
	bar := func(class, fill string, off float64, label string, v decimal.Decimal) {
		y := yV(v.InexactFloat64())
		p(`<rect class="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s: R$ %s</title></rect>`+"\n",
			class, f(off), f(y), f(slot*0.35), f(marginTop+plotHeight-y), fill, esc(label), brl(v))
	}
	p(`<g class="bars">` + "\n")
	for k, per := range pg.Periods {
		bar("planned", "#b8c9e6", x(k)+slot*0.12, per.Label+" previsto", per.Planned)
		bar("measured", "#e39a4f", x(k)+slot*0.5, per.Label+" medido", per.Measured)
	}
	p("</g>\n")
	curve := func(class, stroke, dash string, pct func(domain.ProgressPeriod) decimal.Decimal, acc func(domain.ProgressPeriod) decimal.Decimal, what string) {
		pts := []string{f(marginLeft) + "," + f(yP(0))}
		for k, per := range pg.Periods {
			pts = append(pts, f(x(k+1))+","+f(yP(pct(per).InexactFloat64())))
		}
		p(`<polyline class="%s" fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", class, stroke, dash, strings.Join(pts, " "))
		p(`<g class="%s-points" fill="%s">`+"\n", class, stroke)
		for k, per := range pg.Periods {
			p(`<circle cx="%s" cy="%s" r="3"><title>%s: %s %s%% (R$ %s)</title></circle>`+"\n",
				f(x(k+1)), f(yP(pct(per).InexactFloat64())), esc(per.Label), what, Money(pct(per)), brl(acc(per)))
		}
		p("</g>\n")
	}
	curve("planned-curve", "#1f3b73", ` stroke-dasharray="6 3"`, func(q domain.ProgressPeriod) decimal.Decimal { return q.PlannedPercent },
		func(q domain.ProgressPeriod) decimal.Decimal { return q.PlannedAccumulated }, "previsto acumulado")
	curve("measured-curve", "#b3541e", "", func(q domain.ProgressPeriod) decimal.Decimal { return q.MeasuredPercent },
		func(q domain.ProgressPeriod) decimal.Decimal { return q.MeasuredAccumulated }, "medido acumulado")
	labels := make([]string, n)
	for k, per := range pg.Periods {
		labels[k] = per.Label
	}
	periodAxes(p, plotW, width, height, slot, step, maxV, topPct, labels, "Acumulado (% do previsto)")
	p("</svg>\n")
	return bw.Flush()
}
