package reports

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The chart's geometry, in SVG user units (pixels).
const (
	marginLeft   = 96.0
	marginRight  = 76.0
	marginTop    = 114.0
	plotHeight   = 320.0
	minPlotWidth = 640.0
	maxPlotWidth = 1600.0
	slotWidth    = 28.0 // a bar's slot when there is room
)

// Colours of the classes: bands (light) and bars (strong).
var (
	bandColour = map[domain.ABCClass]string{domain.ClassA: "#e6f4ea", domain.ClassB: "#fff6da", domain.ClassC: "#fde8e6"}
	barColour  = map[domain.ABCClass]string{domain.ClassA: "#2e7d32", domain.ClassB: "#c98a00", domain.ClassC: "#c62828"}
)

// ABCSVG draws the ABC curve as a Pareto chart: one bar per resource, in
// the curve's order, its height its total (left axis, R$); the cumulative
// percent as a line with a point per resource (right axis, 0–100%); the
// A, B and C classes as coloured bands behind the bars, labelled with their
// number of resources and share; dashed lines at the two limits; axis
// titles; and a <title> on every bar with the resource and its figures.
// Each bar is a <rect class="bar …">, so the chart can be checked (and
// restyled) by class. The document is standalone SVG 1.1.
func ABCSVG(w io.Writer, r *domain.ABCReport) error {
	bw := bufio.NewWriter(w)
	c := newChart(r)
	c.draw(bw)
	return bw.Flush()
}

type chart struct {
	r          *domain.ABCReport
	labelSpace float64 // below the plot: the rotated codes and the axis title
	n          int
	plotW      float64
	width      float64
	height     float64
	slot       float64
	maxValue   float64 // the top of the left axis
	step       float64 // its tick step
}

func newChart(r *domain.ABCReport) *chart {
	n := len(r.Rows)
	c := &chart{r: r, n: n}
	c.plotW = math.Min(maxPlotWidth, math.Max(minPlotWidth, float64(n)*slotWidth))
	c.width = marginLeft + c.plotW + marginRight
	longest := 4
	for _, row := range r.Rows {
		longest = max(longest, len([]rune(shorten(row.Code, 14))))
	}
	// A code rotated by 55° takes about 5.1 units down per character at 10.
	c.labelSpace = 56 + float64(longest)*5.1
	c.height = marginTop + plotHeight + c.labelSpace
	if n > 0 {
		c.slot = c.plotW / float64(n)
	}
	top := 0.0
	if n > 0 {
		top = r.Rows[0].Total.InexactFloat64() // rows are ranked: the first is the largest
	}
	c.step, c.maxValue = niceScale(top * 1.04) // a little room above the tallest bar
	return c
}

// niceScale returns a tick step of 1, 2 or 5 × 10ⁿ and the axis top (a
// multiple of it) for values up to max, about five ticks.
func niceScale(max float64) (step, top float64) {
	if max <= 0 {
		return 1, 5
	}
	raw := max / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		step = m * mag
		if step >= raw {
			break
		}
	}
	top = math.Ceil(max/step) * step
	return step, top
}

func (c *chart) x(i int) float64 { return marginLeft + float64(i)*c.slot }

func (c *chart) yValue(v float64) float64 {
	return marginTop + plotHeight - v/c.maxValue*plotHeight
}

func (c *chart) yPercent(p float64) float64 { return marginTop + plotHeight - p/100*plotHeight }

func (c *chart) draw(w *bufio.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	b := c.r.Budget
	title := wordsOf(c.r).Title
	if b != nil {
		title += " — " + b.Code + " " + b.Description
	}
	p(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s" role="img" aria-labelledby="chart-title chart-desc" font-family="DejaVu Sans, Arial, Helvetica, sans-serif" font-size="12">`+"\n",
		f(c.width), f(c.height), f(c.width), f(c.height))
	p(`<title id="chart-title">%s</title>`+"\n", esc(title))
	p(`<desc id="chart-desc">%s</desc>`+"\n", esc(c.description()))
	p(`<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>`+"\n", f(c.width), f(c.height))
	// Titles are cut to the width (about 9.5 units a character at 16, 6.6 at 12).
	p(`<text x="16" y="26" font-size="16" font-weight="bold" fill="#222">%s</text>`+"\n", esc(shorten(title, int((c.width-32)/9.5))))
	for i, line := range c.subtitle() {
		p(`<text x="16" y="%d" fill="#444">%s</text>`+"\n", 46+16*i, esc(shorten(line, int((c.width-32)/6.6))))
	}
	c.legend(p)
	c.bands(p)
	c.grid(p)
	c.bars(p)
	c.limits(p)
	c.curve(p)
	c.axes(p)
	if c.n == 0 {
		p(`<text x="%s" y="%s" text-anchor="middle" fill="#666">Sem %s: o orçamento não tem linhas.</text>`+"\n",
			f(marginLeft+c.plotW/2), f(marginTop+plotHeight/2), wordsOf(c.r).Items)
	}
	p("</svg>\n")
}

func (c *chart) description() string {
	return fmt.Sprintf("Gráfico de Pareto: %d %s em ordem decrescente de custo (barras, eixo da esquerda em R$) "+
		"e o percentual acumulado (linha, eixo da direita). Faixas A, B e C com limites de %s%% e %s%%.",
		c.n, wordsOf(c.r).Items, Quantity(c.r.Limits.A), Quantity(c.r.Limits.B))
}

func (c *chart) subtitle() []string {
	return []string{
		fmt.Sprintf("%s: R$ %s · %d %s", wordsOf(c.r).Cost, brl(c.r.Total), c.n, wordsOf(c.r).Items),
		fmt.Sprintf("Classe A até %s%% do custo acumulado, B até %s%%, C o restante", Quantity(c.r.Limits.A), Quantity(c.r.Limits.B)),
	}
}

type printer func(format string, args ...any)

func (c *chart) legend(p printer) {
	x := marginLeft + c.plotW - 250
	y := 80.0
	p(`<g class="legend" font-size="11" fill="#333">`)
	p(`<rect x="%s" y="%s" width="12" height="12" fill="%s"/>`, f(x), f(y-10), barColour[domain.ClassA])
	p(`<text x="%s" y="%s">%s</text>`, f(x+17), f(y), wordsOf(c.r).Legend)
	x += 150
	p(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#1f3b73" stroke-width="2"/>`, f(x), f(y-4), f(x+18), f(y-4))
	p(`<circle cx="%s" cy="%s" r="3" fill="#1f3b73"/>`, f(x+9), f(y-4))
	p(`<text x="%s" y="%s">%% acumulado</text>`, f(x+23), f(y))
	p("</g>\n")
}

// classRange returns the first and last position (0-based) of each class.
func (c *chart) classRanges() map[domain.ABCClass][2]int {
	out := map[domain.ABCClass][2]int{}
	for i, row := range c.r.Rows {
		rg, ok := out[row.Class]
		if !ok {
			rg = [2]int{i, i}
		}
		rg[1] = i
		out[row.Class] = rg
	}
	return out
}

func (c *chart) bands(p printer) {
	ranges := c.classRanges()
	p(`<g class="bands">` + "\n")
	for _, ct := range c.r.Classes() {
		cl := ct.Class
		rg, ok := ranges[cl]
		if !ok {
			continue
		}
		x0, x1 := c.x(rg[0]), c.x(rg[1]+1)
		count := ct.Count
		share := "0"
		if c.r.Total.IsPositive() {
			share = Money(ct.Percent)
		}
		p(`<rect class="band band-%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>Classe %s: %d %s, %s%% do custo</title></rect>`+"\n",
			cl, f(x0), f(marginTop), f(x1-x0), f(plotHeight), bandColour[cl], cl, count, wordsOf(c.r).Items, share)
		label := string(cl)
		if x1-x0 >= 90 {
			label = fmt.Sprintf("%s · %d · %s%%", cl, count, share)
		} else if x1-x0 >= 40 {
			label = fmt.Sprintf("%s · %d", cl, count)
		}
		p(`<text class="band-label" x="%s" y="%s" text-anchor="middle" font-weight="bold" fill="%s">%s</text>`+"\n",
			f((x0+x1)/2), f(marginTop-8), barColour[cl], esc(label))
	}
	p("</g>\n")
}

func (c *chart) grid(p printer) {
	p(`<g class="grid" stroke="#d9d9d9" stroke-width="1">` + "\n")
	for v := c.step; v <= c.maxValue+c.step/1e6; v += c.step {
		y := c.yValue(v)
		p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", f(marginLeft), f(y), f(marginLeft+c.plotW), f(y))
	}
	p("</g>\n")
}

func (c *chart) bars(p printer) {
	p(`<g class="bars">` + "\n")
	gap := math.Min(c.slot*0.2, 6)
	for i, row := range c.r.Rows {
		v := row.Total.InexactFloat64()
		y := c.yValue(v)
		h := marginTop + plotHeight - y
		desc := row.Description
		if row.Idle {
			desc += " (hora improdutiva)"
		}
		tip := fmt.Sprintf("%d. %s %s — %s: %s %s × R$ %s = R$ %s (%s%%; acumulado %s%%; classe %s)",
			row.Position, row.Ref.Name, row.Code, desc, Quantity(row.Quantity.Round(4)), row.Unit,
			Price(row.UnitPrice), brl(row.Total), Money(row.Percent), Money(row.CumulativePercent), row.Class)
		bw := math.Min(math.Max(c.slot-gap, 0.5), 56) // at most 56 wide, centred in its slot
		p(`<rect class="bar bar-%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`+"\n",
			row.Class, f(c.x(i)+(c.slot-bw)/2), f(y), f(bw), f(h), barColour[row.Class], esc(tip))
	}
	p("</g>\n")
}

func (c *chart) limits(p printer) {
	p(`<g class="limits" stroke="#555" stroke-width="1" stroke-dasharray="5,4" fill="#555" font-size="11">` + "\n")
	for _, l := range []struct {
		name string
		v    decimal.Decimal
	}{{"A", c.r.Limits.A}, {"B", c.r.Limits.B}} {
		y := c.yPercent(l.v.InexactFloat64())
		p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(marginLeft), f(y), f(marginLeft+c.plotW), f(y))
		p(`<text x="%s" y="%s" stroke="none" text-anchor="end">limite %s: %s%%</text>`+"\n",
			f(marginLeft+c.plotW-4), f(y-4), l.name, Quantity(l.v))
	}
	p("</g>\n")
}

func (c *chart) curve(p printer) {
	if c.n == 0 {
		return
	}
	var pts []string
	for i, row := range c.r.Rows {
		pts = append(pts, f(c.x(i)+c.slot/2)+","+f(c.yPercent(row.CumulativePercent.InexactFloat64())))
	}
	p(`<polyline class="cumulative" fill="none" stroke="#1f3b73" stroke-width="2" points="%s"/>`+"\n", strings.Join(pts, " "))
	if c.slot >= 6 {
		p(`<g class="points" fill="#1f3b73">` + "\n")
		for i, row := range c.r.Rows {
			p(`<circle cx="%s" cy="%s" r="3"><title>%d. %s: %s%% acumulado</title></circle>`+"\n",
				f(c.x(i)+c.slot/2), f(c.yPercent(row.CumulativePercent.InexactFloat64())), row.Position, esc(row.Code), Money(row.CumulativePercent))
		}
		p("</g>\n")
	}
}

func (c *chart) axes(p printer) {
	bottom := marginTop + plotHeight
	right := marginLeft + c.plotW
	p(`<g class="axes" stroke="#333" stroke-width="1">`)
	p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(marginLeft), f(marginTop), f(marginLeft), f(bottom))
	p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(right), f(marginTop), f(right), f(bottom))
	p(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f(marginLeft), f(bottom), f(right), f(bottom))
	p("</g>\n")

	// Left axis: money.
	p(`<g class="y-axis" font-size="11" fill="#333" text-anchor="end">` + "\n")
	for v := 0.0; v <= c.maxValue+c.step/1e6; v += c.step {
		y := c.yValue(v)
		p(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333"/><text x="%s" y="%s">%s</text>`+"\n",
			f(marginLeft-4), f(y), f(marginLeft), f(y), f(marginLeft-7), f(y+4), esc(axisMoney(v, c.step)))
	}
	p("</g>\n")
	// Right axis: cumulative percent.
	p(`<g class="y2-axis" font-size="11" fill="#333">` + "\n")
	for pc := 0; pc <= 100; pc += 20 {
		y := c.yPercent(float64(pc))
		p(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#333"/><text x="%s" y="%s">%d%%</text>`+"\n",
			f(right), f(y), f(right+4), f(y), f(right+7), f(y+4), pc)
	}
	p("</g>\n")
	// Codes under the bars: all of them when they fit, else every k-th.
	if c.n > 0 {
		every := int(math.Ceil(14 / c.slot))
		p(`<g class="x-axis" font-size="10" fill="#333">` + "\n")
		for i, row := range c.r.Rows {
			if i%every != 0 {
				continue
			}
			x, y := c.x(i)+c.slot/2, bottom+12
			p(`<text x="%s" y="%s" text-anchor="end" transform="rotate(-55 %s %s)">%s</text>`+"\n",
				f(x), f(y), f(x), f(y), esc(shorten(row.Code, 14)))
		}
		p("</g>\n")
	}
	// Axis titles.
	p(`<text class="axis-title" x="%s" y="%s" text-anchor="middle" fill="#222">%s</text>`+"\n",
		f(marginLeft+c.plotW/2), f(c.height-12), wordsOf(c.r).Axis)
	midY := marginTop + plotHeight/2
	p(`<text class="axis-title" x="20" y="%s" text-anchor="middle" fill="#222" transform="rotate(-90 20 %s)">%s</text>`+"\n",
		f(midY), f(midY), wordsOf(c.r).Bar)
	xr := c.width - 16
	p(`<text class="axis-title" x="%s" y="%s" text-anchor="middle" fill="#222" transform="rotate(90 %s %s)">Percentual acumulado (%%)</text>`+"\n",
		f(xr), f(midY), f(xr), f(midY))
}

// f writes a coordinate with at most 2 decimals.
func f(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// esc escapes text for an XML text node or attribute.
func esc(s string) string {
	var sb strings.Builder
	_ = xml.EscapeText(&sb, []byte(s))
	return sb.String()
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// brl writes an amount as Brazilians read it: "22.077,68".
func brl(d decimal.Decimal) string {
	if s, ok := brlFast(d, 2); ok {
		return s
	}
	s := d.StringFixed(2)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var sb strings.Builder
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			sb.WriteByte('.')
		}
		sb.WriteRune(ch)
	}
	out := sb.String() + "," + frac
	if neg {
		out = "-" + out
	}
	return out
}

// axisMoney writes a tick of the money axis: no centavos when the step is
// whole ("5.000"), else 2 places.
func axisMoney(v, step float64) string {
	d := decimal.NewFromFloat(v)
	if step >= 1 && step == math.Trunc(step) {
		s := brl(d.Round(0))
		return strings.TrimSuffix(s, ",00")
	}
	return brl(d.Round(2))
}
