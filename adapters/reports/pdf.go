package reports

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// The PDF documents (docs/decisions.md, "PDF with a writer of our own and the embedded Go fonts" has the decisions): A4 landscape;
// on every page a header (the company's legal name, CNPJ and address, its
// logo when it is a PNG or JPEG, the responsible engineer and registry,
// the budget's ART/RRT and issue date; the report's title, the budget, its
// editions, regime, BDI and the rule that makes a line's figures) and a
// footer ("Página n de N"; for a frozen version its number and SHA-256);
// the table, its descriptions wrapped over as many lines as they need
// (never cut), stage rows bold on a shaded band, a stage repeated with
// "(cont.)" at the top of a page its rows carry onto; then the summary of
// the totals and the signature block. A unit price is printed with every
// place it has (at least 2), so that a reader recomputes a unit price with
// BDI from the printed unit price and the printed BDI of its line by the
// printed rule, to the centavo.
//
// A table is laid out once, each page written as soon as it is full, so
// that the document's first bytes leave while its rows are computed. A
// page's footer ("Página n de N") needs the number of pages, known only at
// the end: it is the page's second content stream, written with the page's
// dictionary after the last page (pdfWriter.finish); a reader draws a
// page's content streams one after the other, as one. The rows are read
// through the report's Each once (a streamed report walks its budget
// again), so the memory a document takes does not grow with the budget.

// pdfCol is a column of a PDF table.
type pdfCol struct {
	title string
	w     float64
	right bool
}

// pdfRowKind is how a table row is drawn.
type pdfRowKind uint8

const (
	pdfLine  pdfRowKind = iota // a budget line, an item, an ABC row
	pdfStage                   // bold on a shaded band, repeated with "(cont.)"
	pdfTotal                   // bold (the ABC curve's total and classes)
)

// pdfRow is one row of a table as the writers hand it to the layout (its
// cells the writer's for the call only).
type pdfRow struct {
	cells  []string
	kind   pdfRowKind
	depth  int  // its depth in the budget's tree (items: their line's + level); 0 outside it
	indent int  // the description's indentation, in steps (analytic items)
	carry  bool // repeated with "(cont.)" at the top of a page the rows under it carry onto
}

// pdfTable is what a document's table is made of besides its rows.
type pdfTable struct {
	title   string
	cols    []pdfCol
	desc    int         // the column that wraps (the description)
	summary [][2]string // label and value, after the table
	rule    string      // how a line's figures are made (printed in the header), "" none
}

// The columns of the synthetic and analytic tables.
const (
	colItem = iota
	colBank
	colCode
	colDesc
	colUnit
	colQty
	colPrice
	colBDI
	colPriceBDI
	colTotal
	colTotalBDI
	colWeight
	budgetCols
)

// budgetPDFCols are the columns of the synthetic and analytic tables.
func budgetPDFCols(qty, total string) []pdfCol {
	return []pdfCol{{"Item", 36, false}, {"Banco", 40, false}, {"Código", 44, false}, {"Descrição", 0, false}, {"Un.", 28, false},
		{qty, 54, true}, {"Preço unit.", 58, true}, {"BDI %", 34, true}, {"Preço c/ BDI", 56, true}, {total, 66, true},
		{"Total c/ BDI", 66, true}, {"Peso %", 34, true}}
}

// SyntheticPDF writes the synthetic report as a PDF for the client (the Go
// fonts embedded; see above): a row per stage and line, then the summary
// of the totals and the signature block. Amounts are written as
// Brazilians read them (1.234,56), unit prices with every place they have.
// The document is dated by the budget's issue date, else Document.stamp,
// so one budget state (or version) gives the same file.
func SyntheticPDF(w io.Writer, r *domain.SyntheticReport, doc Document) error {
	b := r.Budget
	t := pdfTable{title: "Orçamento sintético", cols: budgetPDFCols("Quantidade", "Total"), desc: colDesc,
		summary: totalsPDFSummary(b, r.BudgetTotals), rule: bdiRule(b)}
	row := pdfRow{cells: make([]string, budgetCols)}
	return tablePDF(w, b, doc, t, func(emit func(*pdfRow) error) error {
		return r.Each(func(rw *domain.SyntheticRow) error { return emit(syntheticPDFRow(&row, b, rw)) })
	})
}

// AnalyticPDF writes the analytic report as a PDF, as SyntheticPDF does,
// each composition line followed by its items per unit (indented by level,
// coefficient as the quantity, unit price, the partial in the Total
// column); the summary adds the direct cost by category.
func AnalyticPDF(w io.Writer, r *domain.AnalyticReport, doc Document) error {
	b := r.Budget
	summary := totalsPDFSummary(b, r.BudgetTotals)
	summary = append(summary, [][2]string{{"Custo direto pelos insumos: mão de obra", brl(r.Summary.Labor)},
		{"Custo direto pelos insumos: material", brl(r.Summary.Material)},
		{"Custo direto pelos insumos: equipamento", brl(r.Summary.Equipment)},
		{"Custo direto pelos insumos: serviços", brl(r.Summary.Services)}}...)
	t := pdfTable{title: "Orçamento analítico", cols: budgetPDFCols("Qtde. / coef.", "Total / parcial"), desc: colDesc,
		summary: summary, rule: bdiRule(b) + " Itens: coeficiente por unidade, preço unitário e parcial."}
	row := pdfRow{cells: make([]string, budgetCols)}
	return tablePDF(w, b, doc, t, func(emit func(*pdfRow) error) error {
		var items func(depth, level int, its []domain.AnalyticItem) error
		items = func(depth, level int, its []domain.AnalyticItem) error {
			for i := range its {
				it := &its[i]
				clear(row.cells)
				row.kind, row.depth, row.indent, row.carry = pdfLine, depth+level, level, false
				c := row.cells
				c[colDesc] = missingNote(it.Description, it.Missing)
				c[colBank], c[colCode], c[colUnit], c[colQty] = it.Bank, it.Code, it.Unit, Quantity(it.Coefficient)
				if !it.Missing {
					c[colPrice], c[colTotal] = pdfExact(it.UnitPrice), brl(it.Partial)
				}
				if err := emit(&row); err != nil {
					return err
				}
				if err := items(depth, level+1, it.Items); err != nil {
					return err
				}
			}
			return nil
		}
		return r.Each(func(rw *domain.AnalyticRow) error {
			line := syntheticPDFRow(&row, b, &rw.SyntheticRow)
			line.carry = line.carry || len(rw.Items) > 0 // its items carry it too
			if err := emit(line); err != nil {
				return err
			}
			return items(rw.Depth, 1, rw.Items)
		})
	})
}

// ABCPDF writes the ABC curve as a PDF (header, footer and signature as
// SyntheticPDF): one row per resource, ranked, then the total and the
// classes.
func ABCPDF(w io.Writer, r *domain.ABCReport, doc Document) error {
	cols := []pdfCol{{"Pos.", 30, false}, {"Banco", 44, false}, {"Código", 50, false}, {"Descrição", 0, false}, {"Un.", 30, false},
		{"Quantidade", 70, true}, {wordsOf(r).PDFPrice, 66, true}, {wordsOf(r).Total, 76, true}, {"%", 40, true}, {"% acum.", 48, true}, {"Classe", 36, true}}
	footer := [][]string{{"", "", "", "Total", "", "", "", brl(r.Total), "", "", ""}}
	for _, c := range r.Classes() {
		footer = append(footer, []string{"", "", "", fmt.Sprintf("Classe %s (%d itens)", c.Class, c.Count), "", "", "", brl(c.Total), brl(c.Percent), "", ""})
	}
	title := fmt.Sprintf("%s (A até %s%%, B até %s%%)", wordsOf(r).Title, Quantity(r.Limits.A), Quantity(r.Limits.B))
	t := pdfTable{title: title, cols: cols, desc: 3}
	return tablePDF(w, r.Budget, doc, t, func(emit func(*pdfRow) error) error {
		row := pdfRow{depth: 1}
		for _, rw := range r.Rows {
			row.cells = []string{strconv.Itoa(rw.Position), rw.Ref.Name, rw.Code, missingNote(rw.Description, rw.Missing), rw.Unit,
				Quantity(rw.Quantity), "", brl(rw.Total), brl(rw.Percent), brl(rw.CumulativePercent), string(rw.Class)}
			if !rw.Missing {
				row.cells[6] = pdfExact(rw.UnitPrice)
			}
			if err := emit(&row); err != nil {
				return err
			}
		}
		row.kind, row.depth = pdfTotal, 0
		for _, f := range footer {
			row.cells = f
			if err := emit(&row); err != nil {
				return err
			}
		}
		return nil
	})
}

// syntheticPDFRow fills row with a synthetic row in budgetPDFCols and
// returns it: a stage its totals and weight; a line also what it names,
// its quantity, unit price (every place), the BDI rate that applies to it
// and the figures with BDI (none when the BDI is on the final total: the
// footer carries it).
func syntheticPDFRow(row *pdfRow, b *domain.Budget, rw *domain.SyntheticRow) *pdfRow {
	c := row.cells
	clear(c)
	row.depth, row.indent = rw.Depth, 0
	row.kind, row.carry = pdfLine, false
	if !rw.Kind.IsLine() {
		row.kind, row.carry = pdfStage, true
	}
	onUnit := b.BDIMode != domain.BDIOnFinalTotal
	c[colItem], c[colDesc], c[colTotal], c[colWeight] = rw.Number, missingNote(rw.Description, rw.Missing), brl(rw.Total), brl(rw.Weight)
	if onUnit {
		c[colTotalBDI] = brl(rw.TotalWithBDI)
	}
	if !rw.Kind.IsLine() {
		return row
	}
	c[colBank], c[colCode], c[colUnit], c[colQty] = rw.Bank, rw.Code, rw.Unit, Quantity(rw.Quantity)
	if !rw.Missing {
		c[colPrice] = pdfExact(rw.UnitPrice)
		if onUnit {
			rate := b.BDI
			if rw.Supply {
				rate = b.SupplyBDI
			}
			c[colBDI], c[colPriceBDI] = pdfRate(rate), brl(rw.UnitPriceWithBDI)
		}
	}
	return row
}

// pdfTotalWithBDI is the summary's label of the total with BDI (bold).
const pdfTotalWithBDI = "Total com BDI"

// totalsPDFSummary is the summary of a budget's totals: without BDI, the
// BDI (every rate it applied), with BDI.
func totalsPDFSummary(b *domain.Budget, t domain.BudgetTotals) [][2]string {
	bdi := "BDI (" + pdfRate(b.BDI) + "%"
	if !b.SupplyBDI.IsZero() {
		bdi += "; fornecimento " + pdfRate(b.SupplyBDI) + "%"
	}
	if b.BDIMode == domain.BDIOnFinalTotal {
		bdi += " sobre o total"
	}
	bdi += ")"
	return [][2]string{{"Total sem BDI", brl(t.Total)}, {bdi, brl(t.BDIValue)}, {pdfTotalWithBDI, brl(t.TotalWithBDI)}}
}

// bdiRule says how the lines' figures are made (domain.BDIRule), in the
// words a reader redoes them with.
func bdiRule(b *domain.Budget) string {
	cut := "truncados"
	if b.Rounding == domain.BudgetRound {
		cut = "arredondados (metade para cima)"
	}
	if b.BDIMode == domain.BDIOnFinalTotal {
		return "Total = preço unit. × quantidade; BDI = total sem BDI × taxa; " + cut + " a 2 casas."
	}
	return "Preço c/ BDI = preço unit. × (1 + BDI %/100); Total = preço unit. × quantidade; Total c/ BDI = preço c/ BDI × quantidade; " +
		cut + " a 2 casas."
}

// pdfExact writes a figure with every place it has, 2 at least, up to 10
// (atMost10Places), as Brazilians read it: 8.428 → "8,428", 1234.5 →
// "1.234,50".
func pdfExact(d decimal.Decimal) string {
	if s, ok := exactFast(d); ok {
		return s
	}
	d = atMost10Places(d)
	places := int32(2)
	if e := -d.Exponent(); e > 2 {
		// Trailing zeros beyond the second place say nothing.
		s := strings.TrimRight(d.StringFixed(e), "0")
		_, frac, _ := strings.Cut(s, ".")
		places = max(int32(len(frac)), 2)
	}
	return brlPlaces(d, places)
}

// pdfRate writes a rate in percent with every place it has, 2 at least:
// 22.23 → "22,23", 14.0225 → "14,0225".
func pdfRate(d decimal.Decimal) string { return pdfExact(d) }

// brlPlaces writes d with places decimals (exact: d has no more), the
// thousands grouped.
func brlPlaces(d decimal.Decimal, places int32) string {
	if places >= 0 && places <= 18 {
		if s, ok := brlFast(d, int(places)); ok {
			return s
		}
	}
	s := d.StringFixed(places)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, _ := strings.Cut(s, ".")
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	for i, ch := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			sb.WriteByte('.')
		}
		sb.WriteRune(ch)
	}
	sb.WriteByte(',')
	sb.WriteString(frac)
	return sb.String()
}

// pdfIssueDate is the date a document is issued on: the budget's issue
// date, else the document's stamp.
func pdfIssueDate(b *domain.Budget, doc Document) time.Time {
	if t, err := time.Parse(time.DateOnly, b.IssueDate); err == nil {
		return t
	}
	return doc.stamp(b)
}

var pdfMonths = [...]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
	"outubro", "novembro", "dezembro"}

// The page, in points.
const (
	pdfPageW, pdfPageH = 842.0, 595.0
	pdfMargin          = 28.0
	pdfHeaderH         = 92.0 // from the top margin to the column titles' baseline
	pdfFooterH         = 30.0
	pdfLineH           = 9.5  // a line of text in a row
	pdfRowPad          = 3.5  // a row's height beyond its lines (a row of one line: 13)
	pdfIndent          = 8.0  // an item's indentation step
	pdfSignH           = 92.0 // the signature block
	pdfFontSize        = 8.0
)

// pdfLayout lays a table out on pages and draws them.
type pdfLayout struct {
	pw        *pdfWriter
	b         *domain.Budget
	doc       Document
	t         pdfTable
	logo      *pdfImage
	regular   *pdfFace
	bold      *pdfFace
	header    []pdfHeaderLine
	page      int
	open      bool    // a page is being made
	y         float64 // the top of the next row
	rows      int     // the rows of the table on this page (carried stages left out)
	ctx       []pdfRow
	lines     []string
	contLines []string
	sig       []pdfHeaderLine
}

// pdfHeaderLine is a line of text of the header or the signature block.
type pdfHeaderLine struct {
	bold   bool
	size   float64
	x, y   float64 // y from the top margin (header) or the block's top (signature)
	text   string
	center bool
}

// The table's body: from its first row's top to the footer.
func pdfBodyTop() float64    { return pdfMargin + pdfHeaderH + 4 }
func pdfBodyBottom() float64 { return pdfPageH - pdfMargin - pdfFooterH }

// tablePDF writes a report's table as a PDF (see above). rows hands the
// table's rows to emit in order, once.
func tablePDF(w io.Writer, b *domain.Budget, doc Document, t pdfTable, rows func(emit func(*pdfRow) error) error) error {
	regular, bold, err := pdfFaces()
	if err != nil {
		return err
	}
	l := &pdfLayout{b: b, doc: doc, t: t, regular: regular, bold: bold}
	fixed := 0.0
	for _, c := range t.cols {
		fixed += c.w
	}
	l.t.cols = append([]pdfCol(nil), t.cols...)
	l.t.cols[t.desc].w = pdfPageW - 2*pdfMargin - fixed
	if p := doc.Profile; p != nil && len(p.Logo) > 0 {
		l.logo, _ = pdfLogo(p.Logo) // an SVG or a broken image: no logo (the name is printed)
	}
	l.makeHeader()
	author := doc.Company
	if doc.Profile != nil && doc.Profile.LegalName != "" {
		author = doc.Profile.LegalName
	}
	var images []*pdfImage
	if l.logo != nil {
		images = append(images, l.logo)
	}
	if l.pw, err = newPDFWriter(w, pdfPageW, pdfPageH, "Orçamento "+b.Code, author, doc.stamp(b), images...); err != nil {
		return err
	}
	if err := l.run(rows); err != nil {
		return err
	}
	return l.pw.finish(l.footer)
}

// makeHeader sets the header's lines and the signature block's.
func (l *pdfLayout) makeHeader() {
	b, doc, p := l.b, l.doc, l.doc.Profile
	name := doc.Company
	var id, resp []string
	if p != nil {
		if p.LegalName != "" {
			name = p.LegalName
		}
		if p.CNPJ != "" {
			id = append(id, "CNPJ "+domain.FormatCNPJ(p.CNPJ))
		}
		if p.Address != "" {
			id = append(id, p.Address)
		}
		var who []string
		for _, s := range []string{p.EngineerName, p.EngineerRegistry} {
			if s != "" {
				who = append(who, s)
			}
		}
		if len(who) > 0 {
			resp = append(resp, "Responsável técnico: "+strings.Join(who, " — "))
		}
	}
	if b.ART != "" {
		resp = append(resp, "ART/RRT nº "+b.ART)
	}
	date := pdfIssueDate(b, doc)
	resp = append(resp, "Emissão: "+date.Format("02/01/2006"))

	x := 0.0
	if l.logo != nil {
		w, _ := pdfLogoBox(l.logo)
		x = 6 + w
	}
	bdi := "BDI " + pdfRate(b.BDI) + "%"
	if b.BDIMode == domain.BDIOnFinalTotal {
		bdi += " sobre o total"
	}
	if !b.SupplyBDI.IsZero() {
		bdi += " · BDI diferenciado (fornecimento) " + pdfRate(b.SupplyBDI) + "%"
	}
	if b.BDIParts != nil {
		q := b.BDIParts
		bdi += fmt.Sprintf(" · AC %s S %s R %s G %s DF %s L %s I %s", brlRate(q.AC), brlRate(q.S), brlRate(q.R), brlRate(q.G),
			brlRate(q.DF), brlRate(q.L), brlRate(q.Taxes.Add(q.CPRB)))
	}
	idY, respY := 12.0, 22.0
	if len(id) == 0 { // no CNPJ or address: the engineer's line goes up
		idY, respY = 22, 12
	}
	l.header = []pdfHeaderLine{
		{bold: true, size: 12, x: x, y: 0, text: name},
		{size: 8, x: x, y: idY, text: strings.Join(id, " · ")},
		{size: 8, x: x, y: respY, text: strings.Join(resp, " · ")},
		{bold: true, size: 10, y: 36, text: l.t.title + " " + b.Code + " — " + b.Description},
		{size: 8, y: 48, text: withLabourCharges("Cliente: "+b.Client+" · UF: "+b.State+" · Regime: "+RegimeName(b.Regime()), b)},
		{size: 8, y: 58, text: "Bancos: " + EditionsLabel(b)},
		{size: 8, y: 68, text: bdi},
		{size: 8, y: 78, text: l.t.rule},
	}

	// The signature block: the place left for the hand, the date in words,
	// the line, who signs and the company.
	engineer, registry := "Responsável técnico", ""
	if p != nil {
		if p.EngineerName != "" {
			engineer = p.EngineerName
		}
		registry = p.EngineerRegistry
	}
	if b.ART != "" {
		registry = strings.TrimPrefix(registry+" · ART/RRT nº "+b.ART, " · ")
	}
	company := name
	if p != nil && p.CNPJ != "" {
		company += " · CNPJ " + domain.FormatCNPJ(p.CNPJ)
	}
	l.sig = []pdfHeaderLine{
		{size: 8, y: 16, text: fmt.Sprintf("Local e data: ______________________________, %d de %s de %d", date.Day(), pdfMonths[date.Month()-1], date.Year())},
		{bold: true, size: 8, y: 62, text: engineer, center: true},
		{size: 8, y: 72, text: registry, center: true},
		{size: 8, y: 82, text: company, center: true},
	}
}

// pdfLogoBox is the size the logo is drawn at: its proportions kept, 36
// points high and 110 wide at most.
func pdfLogoBox(im *pdfImage) (w, h float64) {
	const boxW, boxH = 110.0, 36.0
	w, h = boxW, boxW*float64(im.h)/float64(im.w)
	if h > boxH {
		w, h = boxH*float64(im.w)/float64(im.h), boxH
	}
	return w, h
}

// run lays the table out: its rows, the summary, the signature block.
func (l *pdfLayout) run(rows func(emit func(*pdfRow) error) error) error {
	l.page, l.open, l.rows, l.ctx = 0, false, 0, l.ctx[:0]
	if err := rows(l.emit); err != nil {
		return err
	}
	if err := l.summary(); err != nil {
		return err
	}
	if err := l.signature(); err != nil {
		return err
	}
	if l.open {
		return l.endPage()
	}
	return nil
}

// emit places a row: on this page when it fits, else on the next (after
// the stages it belongs to, with "(cont.)"); a row taller than a page is
// split between pages.
func (l *pdfLayout) emit(row *pdfRow) error {
	n := 0
	for n < len(l.ctx) && l.ctx[n].depth < row.depth {
		n++
	}
	l.ctx = l.ctx[:n]
	l.lines = l.wrap(row, l.lines[:0])
	h := pdfRowPad + pdfLineH*float64(len(l.lines))
	if !l.open {
		if err := l.startPage(true); err != nil {
			return err
		}
	} else if keep := l.keep(row, h); l.y+keep > pdfBodyBottom() && l.rows > 0 && h <= pdfBodyBottom()-pdfBodyTop() {
		if err := l.nextPage(); err != nil {
			return err
		}
	}
	lines, first := l.lines, true
	for {
		fit := int((pdfBodyBottom() - l.y - pdfRowPad) / pdfLineH)
		if fit >= len(lines) {
			l.drawRow(row, lines, first)
			break
		}
		if fit >= 1 {
			l.drawRow(row, lines[:fit], first)
			lines, first = lines[fit:], false
		}
		if err := l.nextPage(); err != nil {
			return err
		}
	}
	if row.carry {
		c := pdfRow{cells: append([]string(nil), row.cells...), kind: row.kind, depth: row.depth, carry: true}
		l.ctx = append(l.ctx, c)
	}
	return nil
}

// keep is the room row needs at the foot of a page: its height, and for a
// stage (or a line that carries items) the height of a row of three lines
// besides, so that it is not left alone at the foot of a page, away from
// the rows it heads.
func (l *pdfLayout) keep(row *pdfRow, h float64) float64 {
	if row.carry {
		return h + pdfRowPad + 3*pdfLineH
	}
	return h
}

// wrap appends the lines of row's description to out.
func (l *pdfLayout) wrap(row *pdfRow, out []string) []string {
	f := l.regular
	if row.kind != pdfLine {
		f = l.bold
	}
	// 4 points less than the column: the description keeps clear of the next cell.
	return f.wrap(row.cells[l.t.desc], pdfFontSize, l.t.cols[l.t.desc].w-4-pdfIndent*float64(row.indent), out)
}

// drawRow draws row with the lines of its description given, its other
// cells too when first (a row split between pages has them on its first
// part), at l.y, and moves l.y below it.
func (l *pdfLayout) drawRow(row *pdfRow, lines []string, first bool) {
	h := pdfRowPad + pdfLineH*float64(len(lines))
	f := l.font(row.kind != pdfLine)
	if row.kind == pdfStage {
		l.pw.fill(0.88, pdfMargin, l.y, pdfPageW-2*pdfMargin, h)
	}
	base := l.y + pdfLineH
	x := pdfMargin
	for i, c := range l.t.cols {
		v := row.cells[i]
		switch {
		case i == l.t.desc:
			for k, s := range lines {
				l.pw.text(f, pdfFontSize, x+2+pdfIndent*float64(row.indent), base+pdfLineH*float64(k), s)
			}
		case v != "" && first:
			l.cell(f, c, x, base, v)
		}
		x += c.w
	}
	l.y += h
	l.rows++
}

// cell draws a one-line cell, its size made smaller when the text is wider
// than the column (never cut).
func (l *pdfLayout) cell(f *pdfFont, c pdfCol, x, base float64, v string) {
	size := pdfFontSize
	u := float64(f.units(v)) // measured once: width(v, size) is u × size / 1000
	if w := u * size / 1000; w > c.w-4 {
		size = size * (c.w - 4) / w
	}
	if c.right {
		l.pw.text(f, size, x+c.w-2-u*size/1000, base, v)
	} else {
		l.pw.text(f, size, x+2, base, v)
	}
}

// font is the document's bold or regular font.
func (l *pdfLayout) font(bold bool) *pdfFont {
	if bold {
		return l.pw.fonts[1]
	}
	return l.pw.fonts[0]
}

// nextPage ends the page and starts the next one with the stages the rows
// carry on from, each with "(cont.)".
func (l *pdfLayout) nextPage() error {
	if err := l.endPage(); err != nil {
		return err
	}
	if err := l.startPage(true); err != nil {
		return err
	}
	for i := range l.ctx {
		c := &l.ctx[i]
		cont := pdfRow{cells: make([]string, len(c.cells)), kind: c.kind, depth: c.depth}
		cont.cells[0], cont.cells[l.t.desc] = c.cells[0], c.cells[l.t.desc]+" (cont.)"
		l.contLines = l.wrap(&cont, l.contLines[:0]) // not l.lines: the row being placed holds them
		l.drawRow(&cont, l.contLines, true)
	}
	l.rows = 0
	return nil
}

// startPage draws a page's header and, for a page of the table, the
// column titles.
func (l *pdfLayout) startPage(titles bool) error {
	l.page++
	l.open, l.rows, l.y = true, 0, pdfBodyTop()
	if l.logo != nil {
		w, h := pdfLogoBox(l.logo)
		l.pw.drawImage(l.logo, pdfMargin, pdfMargin-10, w, h)
	}
	for _, hl := range l.header {
		l.line(hl, pdfMargin+hl.x, pdfMargin+hl.y, pdfPageW-2*pdfMargin-hl.x)
	}
	y, x := pdfMargin+pdfHeaderH, pdfMargin
	if !titles {
		return nil
	}
	bold := l.font(true)
	for _, c := range l.t.cols {
		if c.right {
			l.pw.text(bold, pdfFontSize, x+c.w-2-bold.width(c.title, pdfFontSize), y, c.title)
		} else {
			l.pw.text(bold, pdfFontSize, x+2, y, c.title)
		}
		x += c.w
	}
	l.pw.line(0.5, pdfMargin, y+3, pdfPageW-pdfMargin, y+3)
	return nil
}

// line draws a line of the header or the signature block, made smaller
// (down to 6 points) and then cut when it is wider than width.
func (l *pdfLayout) line(hl pdfHeaderLine, x, y, width float64) {
	if hl.text == "" {
		return
	}
	f := l.font(hl.bold)
	size, s := hl.size, hl.text
	if w := f.width(s, size); w > width-4 {
		size = max(size*(width-4)/w, 6)
		s = f.fit(s, size, width)
	}
	if hl.center {
		x += (width - f.width(s, size)) / 2
	}
	l.pw.text(f, size, x, y, s)
}

// endPage writes the page (its footer comes at the end: footer).
func (l *pdfLayout) endPage() error {
	l.open = false
	return l.pw.endPage()
}

// footer draws the footer of page (from 1) of pages: a rule and "Página n
// de N", for a frozen version after its number and hash.
func (l *pdfLayout) footer(page, pages int) {
	foot := fmt.Sprintf("Página %d de %d", page, pages)
	if v := l.doc.Version; v != nil {
		foot = fmt.Sprintf("Versão congelada %d · SHA-256 %s · %s", v.Number, v.Hash, foot)
	}
	l.pw.line(0.5, pdfMargin, pdfPageH-pdfMargin-pdfFooterH+8, pdfPageW-pdfMargin, pdfPageH-pdfMargin-pdfFooterH+8)
	l.pw.text(l.font(false), pdfFontSize, pdfMargin, pdfPageH-pdfMargin-pdfFooterH+20, foot)
}

// summary draws the totals after the table, under their own titles
// ("Resumo", "Valor (R$)"), kept on one page; the total with BDI bold.
func (l *pdfLayout) summary() error {
	if len(l.t.summary) == 0 {
		return nil
	}
	const rowH = pdfRowPad + pdfLineH
	if err := l.room(8 + rowH*float64(1+len(l.t.summary))); err != nil {
		return err
	}
	l.y += 8
	x0 := pdfMargin
	for _, c := range l.t.cols[:l.t.desc] {
		x0 += c.w
	}
	right := pdfPageW - pdfMargin
	bold := l.font(true)
	l.pw.line(0.5, x0, l.y, right, l.y)
	l.pw.text(bold, pdfFontSize, x0+2, l.y+pdfLineH, "Resumo")
	l.pw.text(bold, pdfFontSize, right-2-bold.width("Valor (R$)", pdfFontSize), l.y+pdfLineH, "Valor (R$)")
	for i, s := range l.t.summary {
		f := l.font(s[0] == pdfTotalWithBDI)
		y := l.y + rowH*float64(i+1) + pdfLineH
		l.pw.text(f, pdfFontSize, x0+2, y, s[0])
		l.pw.text(f, pdfFontSize, right-2-f.width(s[1], pdfFontSize), y, s[1])
	}
	l.y += rowH * float64(1+len(l.t.summary))
	return nil
}

// signature draws the signature block, kept on one page.
func (l *pdfLayout) signature() error {
	if err := l.room(pdfSignH); err != nil {
		return err
	}
	mid := pdfPageW / 2
	l.pw.line(0.5, mid-130, l.y+50, mid+130, l.y+50)
	for _, s := range l.sig {
		x, w := pdfMargin, pdfPageW-2*pdfMargin
		l.line(s, x, l.y+s.y, w)
	}
	l.y += pdfSignH
	return nil
}

// room starts a new page (without carried stages) unless h points fit
// under the last row.
func (l *pdfLayout) room(h float64) error {
	if l.open && l.y+h <= pdfBodyBottom() {
		return nil
	}
	if l.open {
		if err := l.endPage(); err != nil {
			return err
		}
	}
	l.ctx = l.ctx[:0]
	return l.startPage(false)
}

// brlRate writes a percent as "22,23".
func brlRate(d interface{ StringFixed(int32) string }) string {
	s := d.StringFixed(2)
	out := []rune(s)
	for i, c := range out {
		if c == '.' {
			out[i] = ','
		}
	}
	return string(out)
}
