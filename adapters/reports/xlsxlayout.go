package reports

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the logo's size, read by excelize
	_ "image/png"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"
)

// The layout of the workbooks (see xlsx.go): styles, column widths by
// content, panes, page setup, the profile in the header, the logo and the
// signature block.

// styles are the cell styles of a workbook, made once when it starts (the
// same order every time, so one report gives one workbook).
type styles struct {
	bold, title, head, wrap, center int
	// text is a table's plain text cell (at the top of a tall row).
	text int
	// money is #,##0.00; boldMoney the footer's.
	money, boldMoney int
	// stage, stageWrap and stageMoney are a stage row's cells: bold on a
	// shade.
	stage, stageWrap, stageMoney int
	// num are #,##0.00 … #,##0.0000000 by places (2 to 7).
	num [maxShownPlaces + 1]int
}

// maxShownPlaces is the most places a number is shown with: a budget's
// quantities have at most 7 (domain.Budget's validation).
const maxShownPlaces = 7

// The shades of the table's headings and of its stage rows.
const (
	headShade  = "D9E1F2"
	stageShade = "EDF1F9"
)

// numFmt is the number format of places decimal places: #,##0.00 for 2 (a
// pt-BR spreadsheet shows 1.234,56).
func numFmt(places int) string {
	if places <= 0 {
		return "#,##0"
	}
	return "#,##0." + strings.Repeat("0", places)
}

func (s *styles) init(f *excelize.File) error {
	fill := func(color string) excelize.Fill {
		return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}}
	}
	top := &excelize.Alignment{Vertical: "top"}
	wrapTop := &excelize.Alignment{Vertical: "top", WrapText: true}
	bold := &excelize.Font{Bold: true}
	for _, st := range []struct {
		id *int
		s  excelize.Style
	}{
		{&s.bold, excelize.Style{Font: bold}},
		{&s.title, excelize.Style{Font: &excelize.Font{Bold: true, Size: 13}, Alignment: &excelize.Alignment{Vertical: "center"}}},
		{&s.head, excelize.Style{Font: bold, Fill: fill(headShade), Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
			Border: []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}}},
		{&s.wrap, excelize.Style{Alignment: wrapTop}},
		{&s.text, excelize.Style{Alignment: top}},
		{&s.center, excelize.Style{Alignment: &excelize.Alignment{Horizontal: "center", Vertical: "top"}}},
		{&s.money, excelize.Style{CustomNumFmt: ptrStr(numFmt(2)), Alignment: top}},
		{&s.boldMoney, excelize.Style{Font: bold, CustomNumFmt: ptrStr(numFmt(2))}},
		{&s.stage, excelize.Style{Font: bold, Fill: fill(stageShade), Alignment: top}},
		{&s.stageWrap, excelize.Style{Font: bold, Fill: fill(stageShade), Alignment: wrapTop}},
		{&s.stageMoney, excelize.Style{Font: bold, Fill: fill(stageShade), CustomNumFmt: ptrStr(numFmt(2)), Alignment: top}},
	} {
		id, err := f.NewStyle(&st.s)
		if err != nil {
			return err
		}
		*st.id = id
	}
	for p := 2; p <= maxShownPlaces; p++ {
		id, err := f.NewStyle(&excelize.Style{CustomNumFmt: ptrStr(numFmt(p)), Alignment: top})
		if err != nil {
			return err
		}
		s.num[p] = id
	}
	return nil
}

// places is how many decimal places d has (trailing zeros do not count),
// between lo and hi.
func places(d decimal.Decimal, lo, hi int) int {
	return min(max(fracDigits(d), lo), hi)
}

// fracDigits is how many places d has, trailing zeros left out (as
// d.String() writes it): from its coefficient and exponent when the
// coefficient fits in 18 digits, without writing it out (every cell of a
// table asks this, in both passes).
func fracDigits(d decimal.Decimal) int {
	e := int(d.Exponent())
	if e >= 0 || d.IsZero() {
		return 0
	}
	if d.NumDigits() > 18 {
		s := d.String()
		if i := strings.IndexByte(s, '.'); i >= 0 {
			return len(s) - i - 1
		}
		return 0
	}
	c, p := d.CoefficientInt64(), -e
	for p > 0 && c%10 == 0 {
		c /= 10
		p--
	}
	return p
}

// isSICRO reports whether bank is a SICRO edition's name (SICRO3…), whose
// prices carry 4 places.
func isSICRO(bank string) bool { return strings.HasPrefix(strings.ToUpper(bank), "SICRO") }

// pricePlaces is how many places a unit price or partial of bank is shown
// with: 4 for SICRO (DNIT carries 4 places), else 2; more when the figure
// has more (an own composition's rounding), so that what a formula
// multiplies is what the cell shows.
func pricePlaces(bank string, d decimal.Decimal) int {
	lo := 2
	if isSICRO(bank) {
		lo = 4
	}
	return places(d, lo, maxShownPlaces)
}

// price is the style of a unit price or partial of bank.
func (s *styles) price(bank string, d decimal.Decimal) int { return s.num[pricePlaces(bank, d)] }

// qty is the style of a quantity or coefficient shown with its own places
// (at least 2).
func (s *styles) qty(d decimal.Decimal) int { return s.num[places(d, 2, maxShownPlaces)] }

// maxRuneWidth is the widest a rune is in textWidth.
const maxRuneWidth = 1.15

// textWidth is about how many column-width units (the width of a digit) a
// text takes: capitals and bold letters are wider than digits.
func textWidth(s string) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case r == 'i' || r == 'l' || r == 'j' || r == 'I' || r == '.' || r == ',' || r == ' ' || r == '(' || r == ')':
			w += 0.5
		case unicode.IsUpper(r) || r == 'm' || r == 'w':
			w += maxRuneWidth
		case unicode.IsDigit(r):
			w++
		default:
			w += 0.9
		}
	}
	return w
}

// headingWidth is the width the longest word of a heading takes in bold:
// the heading wraps between words, never inside one.
func headingWidth(h string) float64 {
	w := 0.0
	for _, word := range strings.Fields(h) {
		w = max(w, textWidth(word)*1.1)
	}
	return w
}

// numberWidth is the width of d written with places places and the
// thousands separators.
func numberWidth(d decimal.Decimal, places int) float64 {
	digits := intDigits(d)
	w := float64(digits + (digits-1)/3 + 1 + places)
	if d.IsNegative() {
		w++
	}
	return w
}

// intDigits is the number of digits of d's integer part (1 for 0.5): from
// its coefficient's digits and exponent, without writing it out (the
// first pass measures every number of the table; writing each out was
// 40% of that pass).
func intDigits(d decimal.Decimal) int {
	if d.IsZero() {
		return 1 // whatever its exponent
	}
	return max(1, d.NumDigits()+int(d.Exponent()))
}

// colWidths measures a table's columns: the widest content of each (text
// or number) and its heading.
type colWidths []float64

func newColWidths(headings []string) colWidths {
	w := make(colWidths, len(headings))
	for i, h := range headings {
		w[i] = headingWidth(h)
	}
	return w
}

func (w colWidths) text(col byte, s string) {
	// No rune is wider than maxRuneWidth and s has no more runes than
	// bytes: a text that cannot be wider than the column is not measured
	// (most of a long table's descriptions, once one long one was).
	if float64(len(s))*maxRuneWidth <= w[col-'A'] {
		return
	}
	w[col-'A'] = max(w[col-'A'], textWidth(s))
}

func (w colWidths) number(col byte, d decimal.Decimal, places int) {
	w[col-'A'] = max(w[col-'A'], numberWidth(d, places))
}

// widths are the columns' widths: each measure plus a margin, the wrapped
// column (wide) between lo and hi.
func (w colWidths) widths(wide byte, lo, hi float64) []float64 {
	out := make([]float64, len(w))
	for i, m := range w {
		out[i] = math.Ceil(m + 2)
		if byte('A'+i) == wide {
			out[i] = min(max(m+1, lo), hi)
		}
	}
	return out
}

// sheetLayout is how a sheet is laid out before its rows are written.
type sheetLayout struct {
	widths []float64 // of columns A, B, …
	hidden []int     // the hidden (helper) columns, 1-based
	// heading is the row of the table's headings: the rows down to it
	// are frozen, and it is printed on top of every page.
	heading int
	last    byte // the table's last shown column
	profile byte // the column of the profile's lines (rows 2 to 7)
}

// escapeHF escapes a text for a page header or footer (& starts a code)
// and cuts it to n characters (the whole header is limited to 255).
func escapeHF(s string, n int) string {
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n-1]) + "…"
	}
	return strings.ReplaceAll(s, "&", "&&")
}

// layOut sets the sheet's page setup and starts its stream writer with the
// columns' widths, the hidden columns, the frozen header rows and the
// logo.
func (k *book) layOut(b *domain.Budget, doc Document, sh, title string, lay sheetLayout) error {
	f := k.f
	if err := printSetup(f, sh); err != nil {
		return err
	}
	issuer := doc.Company
	if p := doc.Profile; p != nil && p.LegalName != "" {
		issuer = p.LegalName
	}
	right := ""
	if b.IssueDate != "" {
		right = "Emissão: " + dateLabel(b.IssueDate)
	}
	left := b.Code
	if doc.Version != nil {
		left = fmt.Sprintf("%s · versão %d", b.Code, doc.Version.Number)
	}
	if err := f.SetHeaderFooter(sh, &excelize.HeaderFooterOptions{
		OddHeader: "&L&8" + escapeHF(issuer, 60) + "&C&8" + escapeHF(title+" — "+b.Code, 70) + "&R&8" + escapeHF(right, 30),
		OddFooter: "&L&8" + escapeHF(left, 40) + "&C&8Página &P de &N&R&8" + escapeHF(EditionsLabel(b), 60),
	}); err != nil {
		return err
	}
	if err := f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: sh,
		RefersTo: fmt.Sprintf("'%s'!$%d:$%d", sh, lay.heading, lay.heading)}); err != nil {
		return err
	}
	sw, err := f.NewStreamWriter(sh)
	if err != nil {
		return err
	}
	// (excelize puts each column set before the ones set earlier: they are
	// set last to first, so that they are written in order.)
	for _, c := range lay.hidden {
		if err := sw.SetColVisible(c, c, false); err != nil {
			return err
		}
	}
	for i := len(lay.widths) - 1; i >= 0; i-- {
		if err := sw.SetColWidth(i+1, i+1, lay.widths[i]); err != nil {
			return err
		}
	}
	top := fmt.Sprintf("A%d", lay.heading+1)
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: lay.heading, TopLeftCell: top, ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: top, ActiveCell: top, Pane: "bottomLeft"}}}); err != nil {
		return err
	}
	k.sheet = sheet{sw: sw, heights: map[int]float64{}}
	k.lay = lay
	return k.logo(doc, sh, lay)
}

// printSetup sets a sheet's page: A4 landscape, fitted to one page wide
// and as many tall as it takes, with margins of about 1.3 cm (the page
// header and footer 0.8 cm from the edge). (The sheet's "fit to page" flag
// is written when its stream writer starts: this comes first.)
func printSetup(f *excelize.File, sh string) error {
	yes := true
	if err := f.SetSheetProps(sh, &excelize.SheetPropsOptions{FitToPage: &yes}); err != nil {
		return err
	}
	a4, wide, tall, orient := 9, 1, 0, "landscape"
	if err := f.SetPageLayout(sh, &excelize.PageLayoutOptions{Size: &a4, Orientation: &orient,
		FitToWidth: &wide, FitToHeight: &tall}); err != nil {
		return err
	}
	side, edge, hf := 0.5, 0.75, 0.3
	return f.SetPageMargins(sh, &excelize.PageLayoutMarginsOptions{Left: &side, Right: &side,
		Top: &edge, Bottom: &edge, Header: &hf, Footer: &hf})
}

// The logo's box on the sheet, in pixels, at the right of the header's
// first row (made tall enough for it).
const (
	logoHeight = 56
	logoWidth  = 200
)

// logo puts the profile's logo (PNG or JPEG; an SVG logo is left out of
// the workbook: excelize needs the picture's size, which it reads from
// raster images only) at the right end of row 1, which is made tall for it.
func (k *book) logo(doc Document, sh string, lay sheetLayout) error {
	p := doc.Profile
	if p == nil || len(p.Logo) == 0 {
		return nil
	}
	ext := map[string]string{"image/png": ".png", "image/jpeg": ".jpg"}[p.LogoType]
	if ext == "" {
		return nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(p.Logo))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		return nil // an image it cannot read is left out, not a failed document
	}
	scale := min(1, float64(logoHeight)/float64(cfg.Height), float64(logoWidth)/float64(cfg.Width))
	w := int(float64(cfg.Width) * scale)
	// Anchor it in the column where it ends at the table's last column.
	col, room := int(lay.last-'A'), 0
	for ; col > 0; col-- {
		room += int(lay.widths[col]*8 + 0.5)
		if room >= w+4 {
			break
		}
	}
	cell := fmt.Sprintf("%c1", 'A'+col)
	k.heights[1] = float64(logoHeight+6) * 0.75
	return k.f.AddPictureFromBytes(sh, cell, &excelize.Picture{Extension: ext, File: p.Logo,
		Format: &excelize.GraphicOptions{AltText: "Logotipo", ScaleX: scale, ScaleY: scale,
			OffsetX: max(0, room-w-4), OffsetY: 3, Positioning: "oneCell", PrintObject: ptrBool(true)}})
}

func ptrBool(b bool) *bool { return &b }

// profileLines are the profile's lines in the header: legal name, CNPJ,
// address, the engineer and registry, and the budget's ART/RRT and issue
// date (each left out when empty).
func profileLines(b *domain.Budget, p *domain.CompanyProfile) []string {
	var out []string
	add := func(s string) {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	if p != nil {
		add(p.LegalName)
		if p.CNPJ != "" {
			add("CNPJ " + domain.FormatCNPJ(p.CNPJ))
		}
		add(p.Address)
		eng := p.EngineerName
		if p.EngineerRegistry != "" {
			eng = strings.TrimSpace(eng + " — " + p.EngineerRegistry)
		}
		if eng != "" {
			add("Responsável técnico: " + eng)
		}
	}
	if b.ART != "" {
		add("ART/RRT nº " + b.ART)
	}
	if b.IssueDate != "" {
		add("Emissão: " + dateLabel(b.IssueDate))
	}
	return out
}

// header writes the header rows (see newBook).
func (k *book) header(b *domain.Budget, doc Document, title string, lay sheetLayout) error {
	type cell struct {
		col byte
		row int
		v   any
	}
	bdi := func(d decimal.Decimal) excelize.Cell { return number(d, k.num[places(d, 2, 4)]) }
	cells := []cell{
		{'A', 1, excelize.Cell{StyleID: k.title, Value: title + " — " + b.Code + " — " + b.Description}},
		{'A', 2, "Empresa: " + doc.Company},
		{'A', 3, "Cliente: " + b.Client + " · UF: " + b.State},
		{'A', 4, withLabourCharges("Bancos: "+EditionsLabel(b)+" · Regime: "+RegimeName(b.Regime()), b)},
		{'A', 5, "BDI (%)"}, {'C', 5, bdi(b.BDI)},
		{'A', 6, "BDI diferenciado (%)"}, {'C', 6, bdi(b.SupplyBDI)},
	}
	if doc.Version != nil {
		cells = append(cells, cell{'A', 7, fmt.Sprintf("Versão congelada %d · SHA-256 %s", doc.Version.Number, doc.Version.Hash)})
	}
	// The profile's lines, rows 2 to 7 (at most 6), the legal name bold.
	for i, l := range profileLines(b, doc.Profile) {
		var v any = l
		if i == 0 && doc.Profile != nil && doc.Profile.LegalName != "" {
			v = excelize.Cell{StyleID: k.bold, Value: l}
		}
		cells = append(cells, cell{lay.profile, 2 + i, v})
	}
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].row < cells[j].row })
	for _, c := range cells {
		if err := k.put(c.col, c.row, c.v); err != nil {
			return err
		}
	}
	return nil
}

// tableEnd puts the autofilter over the table: its headings' row down to
// its last row, the shown columns.
func (k *book) tableEnd(lay sheetLayout, last int) error {
	return k.f.AutoFilter(k.name, fmt.Sprintf("A%d:%c%d", lay.heading, lay.last, max(last, lay.heading)), nil)
}

// signature writes the signature block from row n in column col
// (centred): a line to sign on, the engineer's name and registry, the
// budget's ART/RRT, the company, and the place and date. It returns the
// row after it.
func (k *book) signature(b *domain.Budget, doc Document, n int, col byte) (int, error) {
	var lines []string
	p := doc.Profile
	name, registry, company := "Responsável técnico", "", doc.Company
	if p != nil {
		if p.EngineerName != "" {
			name = p.EngineerName
		}
		registry = p.EngineerRegistry
		if p.LegalName != "" {
			company = p.LegalName
			if p.CNPJ != "" {
				company += " · CNPJ " + domain.FormatCNPJ(p.CNPJ)
			}
		}
	}
	lines = append(lines, "______________________________________________", name)
	if registry != "" {
		lines = append(lines, registry)
	}
	if b.ART != "" {
		lines = append(lines, "ART/RRT nº "+b.ART)
	}
	if company != "" {
		lines = append(lines, company)
	}
	date := "____/____/________"
	if b.IssueDate != "" {
		date = dateLabel(b.IssueDate)
	}
	lines = append(lines, "", "Local e data: ______________________________, "+date)
	for i, l := range lines {
		if l == "" {
			continue
		}
		if err := k.put(col, n+i, excelize.Cell{StyleID: k.center, Value: l}); err != nil {
			return 0, err
		}
	}
	return n + len(lines), nil
}

// lineHeight is the height of a line of text (points) in the default
// font, 11 points.
const lineHeight = 15

// wrappedLines is how many lines s takes wrapped between words in a
// column width wide (a word wider than the column is cut across lines);
// bold text is wider.
func wrappedLines(s string, width float64, bold bool) int {
	scale := 1.0
	if bold {
		scale = 1.1
	}
	room := max(width-2, 1)
	lines, line := 1, 0.0
	for word := range strings.FieldsSeq(s) { // the words as strings.Fields splits them, none kept
		w := textWidth(word) * scale
		switch {
		case line == 0:
			line = w
		case line+0.5+w <= room:
			line += 0.5 + w
			continue
		default:
			lines++
			line = w
		}
		for line > room {
			lines++
			line -= room
		}
	}
	return lines
}

// fit makes row n tall enough for s wrapped in column col. (A row given no
// height is drawn one line tall by some spreadsheets, whatever it wraps:
// a wrapped cell's row gets the height of its lines.)
func (k *book) fit(n int, col byte, s string, bold bool) {
	i := int(col - 'A')
	if i >= len(k.lay.widths) {
		return
	}
	if l := wrappedLines(s, k.lay.widths[i], bold); l > 1 {
		k.heights[n] = max(k.heights[n], float64(l*lineHeight))
	}
}
