package reports_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
	"github.com/ledongthuc/pdf"
	"github.com/shopspring/decimal"
)

// The PDFs as a reader reads them: their text extracted by a parser
// (ledongthuc/pdf), each piece the writer drew at one place (a cell, a line
// of a description) kept whole (pdfRun), the pieces of one baseline making
// a row. The tests find every description whole, the headings over their
// figures, the profile on every page, "(cont.)" on a carried stage, and
// recompute every printed unit price with BDI from the printed unit price
// and BDI rate by the printed rule.

// pdfRun is a piece of text drawn at one place.
type pdfRun struct {
	x, y float64
	s    string
}

// pdfRuns reads the pieces of text of each page, in the order they were
// drawn. The parser gives each character at the position of the text it
// belongs to (the widths of the writer's fonts are not applied), so a
// piece is a sequence of characters at one position.
func pdfRuns(t *testing.T, body []byte) [][]pdfRun {
	t.Helper()
	rd, err := pdf.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("not a PDF: %v", err)
	}
	var pages [][]pdfRun
	for i := 1; i <= rd.NumPage(); i++ {
		var runs []pdfRun
		for _, c := range rd.Page(i).Content().Text {
			if n := len(runs); n > 0 && runs[n-1].x == c.X && runs[n-1].y == c.Y {
				runs[n-1].s += c.S
				continue
			}
			runs = append(runs, pdfRun{c.X, c.Y, c.S})
		}
		pages = append(pages, runs)
	}
	return pages
}

// pdfRows groups a page's pieces by baseline, top to bottom, each row's
// pieces left to right.
func pdfRows(runs []pdfRun) [][]string {
	var ys []float64
	by := map[float64][]pdfRun{}
	for _, r := range runs {
		if _, ok := by[r.y]; !ok {
			ys = append(ys, r.y)
		}
		by[r.y] = append(by[r.y], r)
	}
	var out [][]string
	for _, y := range ys {
		rs := by[y]
		for i := 1; i < len(rs); i++ { // insertion sort by x
			for j := i; j > 0 && rs[j].x < rs[j-1].x; j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
		row := make([]string, len(rs))
		for i, r := range rs {
			row[i] = r.s
		}
		out = append(out, row)
	}
	return out
}

// spaces makes every run of white space one space.
func spaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// pageText is a page's pieces in the order drawn, one space between them.
func pageText(runs []pdfRun) string {
	var sb strings.Builder
	for _, r := range runs {
		sb.WriteString(r.s)
		sb.WriteByte(' ')
	}
	return spaces(sb.String())
}

// brNumber reads a number as the PDF prints it ("1.234,5678").
func brNumber(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", "."))
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return d
}

// exactWorld is bigWorld with its own composition priced without
// rounding: its unit price has every place of its products (36.506667).
type exactWorld struct{ bigWorld }

func (exactWorld) OwnComposition(code, state string) (*domain.Composition, error) {
	c, err := bigWorld{}.OwnComposition(code, state)
	if c != nil {
		c.Rounding = domain.NoRounding
	}
	return c, err
}

// Every unit price with BDI the synthetic and analytic PDFs print is the
// printed unit price × (1 + the printed BDI rate of its line / 100), cut
// to centavos as the header's rule says; the line's totals are the printed
// unit price (with BDI) × the printed quantity, cut the same way; the
// columns are read under their headings. Budgets over bigWorld with an own
// composition whose unit price has six places, every fourth line at the
// differentiated BDI, truncated and rounded.
func TestPDFUnitPricesRecompute(t *testing.T) {
	for _, rounding := range []domain.BudgetRounding{domain.BudgetTruncate, domain.BudgetRound} {
		b := bigBudget(40)
		b.Rounding = rounding
		b.BDI, b.BDIParts = dec("22.2345"), nil // a rate of four places, printed whole
		syn, err := domain.NewBudgetPricer(exactWorld{}).Synthetic(b)
		if err != nil {
			t.Fatal(err)
		}
		an, err := domain.NewBudgetPricer(exactWorld{}).Analytic(b)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, r := range syn.Rows {
			if r.Kind.IsLine() && !r.Missing {
				lines++
			}
		}
		for name, write := range map[string]func(*bytes.Buffer) error{
			"synthetic": func(w *bytes.Buffer) error {
				return reports.SyntheticPDF(w, syn, reports.Document{Company: "Construtora Alfa"})
			},
			"analytic": func(w *bytes.Buffer) error {
				return reports.AnalyticPDF(w, an, reports.Document{Company: "Construtora Alfa"})
			},
		} {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			checked, manyPlaces, supply := recomputeLines(t, buf.Bytes())
			if checked != lines {
				t.Errorf("%s, %s: %d lines recomputed, want every one of the %d", name, rounding, checked, lines)
			}
			if manyPlaces == 0 || supply == 0 {
				t.Errorf("%s, %s: %d unit prices of more than 2 places, %d lines at the supply BDI: the test proves nothing", name, rounding, manyPlaces, supply)
			}
		}
	}
}

// recomputeLines checks every line row of a budget PDF (see
// TestPDFUnitPricesRecompute) and returns how many it checked, how many
// of their unit prices have more than 2 places and how many are at the
// supply BDI.
func recomputeLines(t *testing.T, body []byte) (checked, manyPlaces, supply int) {
	t.Helper()
	wantHead := []string{"Item", "Banco", "Código", "Descrição", "Un.", "", "Preço unit.", "BDI %", "Preço c/ BDI", "", "Total c/ BDI", "Peso %"}
	for p, runs := range pdfRuns(t, body) {
		text := pageText(runs)
		var cut func(decimal.Decimal) decimal.Decimal
		switch {
		case strings.Contains(text, "truncados a 2 casas"):
			cut = func(d decimal.Decimal) decimal.Decimal { return d.Truncate(2) }
		case strings.Contains(text, "arredondados (metade para cima) a 2 casas"):
			cut = func(d decimal.Decimal) decimal.Decimal { return d.Round(2) } // half away from zero: up, for these figures
		default:
			t.Fatalf("page %d does not print how the figures are cut:\n%s", p+1, text)
		}
		rate := regexp.MustCompile(`BDI ([0-9.,]+)% · BDI diferenciado \(fornecimento\) ([0-9.,]+)%`).FindStringSubmatch(text)
		if rate == nil {
			t.Fatalf("page %d does not print the BDI rates:\n%s", p+1, text)
		}
		head := false
		for _, row := range pdfRows(runs) {
			if len(row) == len(wantHead) && row[0] == "Item" {
				head = true
				for i, w := range wantHead {
					if w != "" && row[i] != w {
						t.Errorf("page %d: heading %d is %q, want %q", p+1, i+1, row[i], w)
					}
				}
				if row[9] != "Total" && row[9] != "Total / parcial" {
					t.Errorf("page %d: heading 10 is %q, want the total without BDI", p+1, row[9])
				}
				continue
			}
			if len(row) != len(wantHead) || !head {
				continue // a stage, an item, a line of a description, the header
			}
			unit, bdi, withBDI := brNumber(t, row[6]), brNumber(t, row[7]), brNumber(t, row[8])
			qty, total, totalBDI := brNumber(t, row[5]), brNumber(t, row[9]), brNumber(t, row[10])
			if row[7] != rate[1] && row[7] != rate[2] {
				t.Errorf("page %d, line %s: BDI %s%%, neither of the header's (%s, %s)", p+1, row[0], row[7], rate[1], rate[2])
			}
			factor := decimal.NewFromInt(1).Add(bdi.Shift(-2))
			if want := cut(unit.Mul(factor)); !withBDI.Equal(want) {
				t.Errorf("page %d, line %s: %s × (1 + %s/100) printed %s, the rule gives %s", p+1, row[0], row[6], row[7], row[8], want)
			}
			if want := cut(unit.Mul(qty)); !total.Equal(want) {
				t.Errorf("page %d, line %s: total %s, %s × %s gives %s", p+1, row[0], row[9], row[6], row[5], want)
			}
			if want := cut(withBDI.Mul(qty)); !totalBDI.Equal(want) {
				t.Errorf("page %d, line %s: total with BDI %s, %s × %s gives %s", p+1, row[0], row[10], row[8], row[5], want)
			}
			checked++
			if _, frac, _ := strings.Cut(row[6], ","); len(frac) > 2 {
				manyPlaces++
			}
			if row[7] == rate[2] {
				supply++
			}
		}
	}
	return checked, manyPlaces, supply
}

// Every description of the synthetic and analytic PDFs is printed whole
// (wrapped over lines, never cut: no "…" anywhere), and the first stage,
// whose lines carry over several pages, is repeated with "(cont.)" at the
// top of each page after its first.
func TestPDFDescriptionsWhole(t *testing.T) {
	b := bigBudget(120)
	syn, err := domain.NewBudgetPricer(bigWorld{}).Synthetic(b)
	if err != nil {
		t.Fatal(err)
	}
	an, err := domain.NewBudgetPricer(bigWorld{}).Analytic(b)
	if err != nil {
		t.Fatal(err)
	}
	descs := map[string]bool{}
	var items func(its []domain.AnalyticItem)
	items = func(its []domain.AnalyticItem) {
		for _, it := range its {
			descs[it.Description] = true
			items(it.Items)
		}
	}
	for _, r := range an.Rows {
		descs[r.Description] = true
		items(r.Items)
	}
	if !descs[bigDesc] {
		t.Fatal("the budget lacks its long description")
	}
	doc := reports.Document{Company: "Construtora Alfa"}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"synthetic": func(w *bytes.Buffer) error { return reports.SyntheticPDF(w, syn, doc) },
		"analytic":  func(w *bytes.Buffer) error { return reports.AnalyticPDF(w, an, doc) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		pages := pdfRuns(t, buf.Bytes())
		var all strings.Builder
		for _, runs := range pages {
			all.WriteString(pageText(runs))
			all.WriteByte(' ')
		}
		text := all.String()
		for d := range descs {
			if name == "synthetic" && !strings.Contains(text, spaces(d)) && isLineDesc(syn, d) {
				t.Errorf("%s: %q is not printed whole", name, d)
			}
			if name == "analytic" && !strings.Contains(text, spaces(d)) {
				t.Errorf("%s: %q is not printed whole", name, d)
			}
		}
		if strings.Contains(text, "…") {
			t.Errorf("%s: something is cut with …", name)
		}
		if len(pages) < 3 {
			t.Fatalf("%s: %d pages, want several", name, len(pages))
		}
		// Stage 1 holds 100 lines: its rows fill page 1 and carry on; page
		// 2's first row under the column titles is the stage, "(cont.)".
		rows := pdfRows(pages[1])
		for i, r := range rows {
			if len(r) > 0 && r[0] == "Item" {
				if i+1 >= len(rows) || len(rows[i+1]) != 2 || rows[i+1][0] != "1" || rows[i+1][1] != "Etapa 1 — alvenaria e revestimentos (cont.)" {
					t.Errorf("%s, page 2: the first row is not stage 1 carried on with (cont.): %q", name, rows[min(i+1, len(rows)-1)])
				}
				break
			}
		}
		if !strings.Contains(text, "1 Etapa 1 — alvenaria e revestimentos (cont.)") {
			t.Errorf("%s: stage 1 is never carried with (cont.)", name)
		}
	}
}

// isLineDesc reports whether d is the description of a row of r (the
// synthetic report prints no items).
func isLineDesc(r *domain.SyntheticReport, d string) bool {
	for _, row := range r.Rows {
		if row.Description == d {
			return true
		}
	}
	return false
}

// testProfile is a company profile with every field.
func testProfile(logo []byte, typ string) *domain.CompanyProfile {
	return &domain.CompanyProfile{CompanyID: "c1", LegalName: "Construtora Alfa Engenharia Ltda.", CNPJ: "11222333000181",
		Address: "Rua dos Inconfidentes, 1190, Belo Horizonte/MG", EngineerName: "Maria Helena Duarte",
		EngineerRegistry: "CREA-MG 123456/D", Logo: logo, LogoType: typ}
}

// The header of every page of every PDF names the company (legal name,
// CNPJ punctuated, address), the engineer and registry, the budget's ART
// and issue date; the last page has the signature block. Without a profile
// the company's name stands alone and the date is the document's stamp.
func TestPDFHeaderAndSignature(t *testing.T) {
	syn := docSynthetic(60)
	syn.Budget.ART, syn.Budget.IssueDate = "MG20260012345", "2026-09-15"
	an := docAnalytic(40)
	an.Budget = syn.Budget
	abc := abcReport(t)
	abc.Budget = syn.Budget
	for _, profile := range []bool{true, false} {
		doc := reports.Document{Company: "Construtora Alfa"}
		want := []string{"Construtora Alfa", "ART/RRT nº MG20260012345", "Emissão: 15/09/2026"}
		sign := []string{"Local e data:", "15 de setembro de 2026", "Responsável técnico", "ART/RRT nº MG20260012345"}
		if profile {
			doc.Profile = testProfile(nil, "")
			want = append(want, "Construtora Alfa Engenharia Ltda.", "CNPJ 11.222.333/0001-81", "Rua dos Inconfidentes, 1190, Belo Horizonte/MG",
				"Responsável técnico: Maria Helena Duarte — CREA-MG 123456/D")
			sign = []string{"Local e data:", "15 de setembro de 2026", "Maria Helena Duarte", "CREA-MG 123456/D · ART/RRT nº MG20260012345",
				"Construtora Alfa Engenharia Ltda. · CNPJ 11.222.333/0001-81"}
		}
		for name, write := range map[string]func(*bytes.Buffer) error{
			"synthetic": func(w *bytes.Buffer) error { return reports.SyntheticPDF(w, syn, doc) },
			"analytic":  func(w *bytes.Buffer) error { return reports.AnalyticPDF(w, an, doc) },
			"abc":       func(w *bytes.Buffer) error { return reports.ABCPDF(w, abc, doc) },
		} {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			pages := pdfRuns(t, buf.Bytes())
			for p, runs := range pages {
				text := pageText(runs)
				for _, w := range want {
					if !strings.Contains(text, w) {
						t.Errorf("%s (profile %v), page %d lacks %q:\n%s", name, profile, p+1, w, text)
					}
				}
			}
			last := pageText(pages[len(pages)-1])
			for _, w := range sign {
				if !strings.Contains(last, w) {
					t.Errorf("%s (profile %v): the last page lacks %q of the signature block:\n%s", name, profile, w, last)
				}
			}
		}
	}
	// No issue date: the document's stamp (the budget's last change).
	syn.Budget.IssueDate = ""
	var buf bytes.Buffer
	if err := reports.SyntheticPDF(&buf, syn, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	if text := pageText(pdfRuns(t, buf.Bytes())[0]); !strings.Contains(text, "Emissão: 20/08/2026") {
		t.Errorf("no issue date: the header does not show the stamp's date:\n%s", text)
	}
}

// The logo: a PNG with transparency is embedded as an RGB image with a
// soft mask, a JPEG as it is (DCTDecode); an SVG, which the writer cannot
// draw, is left out and the legal name printed. Each PDF reads back.
func TestPDFLogo(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	for y := range 20 {
		for x := range 40 {
			img.Set(x, y, color.NRGBA{R: uint8(6 * x), G: 90, B: 160, A: uint8(255 * (x % 2))})
		}
	}
	var pngB, jpgB bytes.Buffer
	if err := png.Encode(&pngB, img); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&jpgB, img, nil); err != nil {
		t.Fatal(err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`)
	for _, c := range []struct {
		name, typ string
		logo      []byte
		want      []string
		not       []string
	}{
		{"png", "image/png", pngB.Bytes(), []string{"/Subtype /Image /Width 40 /Height 20 /ColorSpace /DeviceRGB", "/FlateDecode", "/SMask", "/XObject << /Im1"}, nil},
		{"jpeg", "image/jpeg", jpgB.Bytes(), []string{"/Subtype /Image /Width 40 /Height 20 /ColorSpace /DeviceRGB", "/DCTDecode", "/XObject << /Im1"}, []string{"/SMask"}},
		{"svg", "image/svg+xml", svg, nil, []string{"/Subtype /Image", "/XObject"}},
	} {
		var buf bytes.Buffer
		doc := reports.Document{Company: "Construtora Alfa", Profile: testProfile(c.logo, c.typ)}
		if err := reports.SyntheticPDF(&buf, docSynthetic(40), doc); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !bytes.Contains(buf.Bytes(), []byte(w)) {
				t.Errorf("%s: the PDF lacks %q", c.name, w)
			}
		}
		for _, w := range c.not {
			if bytes.Contains(buf.Bytes(), []byte(w)) {
				t.Errorf("%s: the PDF has %q", c.name, w)
			}
		}
		if c.name == "jpeg" && !bytes.Contains(buf.Bytes(), jpgB.Bytes()) {
			t.Errorf("jpeg: the file is not embedded as it is")
		}
		for p, runs := range pdfRuns(t, buf.Bytes()) {
			if !strings.Contains(pageText(runs), "Construtora Alfa Engenharia Ltda.") {
				t.Errorf("%s: page %d lacks the legal name", c.name, p+1)
			}
		}
	}
}

// A streamed report (its rows walked again for each layout run) gives the
// same PDF, byte for byte, as the report with its rows held, for a tree
// three stages deep with an empty stage and a line the edition lacks
// ("(sem preço)", no unit price); and every page says "Página n de N"
// with the N it has.
func TestPDFStreamedIsWhole(t *testing.T) {
	b := streamBudget()
	b.ART, b.IssueDate = "MG20260012345", "2026-09-15"
	doc := reports.Document{Company: "Construtora Alfa", Profile: testProfile(nil, "")}
	bp := domain.NewBudgetPricer(streamWorld{})
	for _, analytic := range []bool{false, true} {
		var whole, streamed bytes.Buffer
		if analytic {
			w, err := bp.Analytic(b)
			if err != nil {
				t.Fatal(err)
			}
			s, err := bp.AnalyticStream(b, b.Walk)
			if err != nil {
				t.Fatal(err)
			}
			if err := reports.AnalyticPDF(&whole, w, doc); err != nil {
				t.Fatal(err)
			}
			if err := reports.AnalyticPDF(&streamed, s, doc); err != nil {
				t.Fatal(err)
			}
		} else {
			w, err := bp.Synthetic(b)
			if err != nil {
				t.Fatal(err)
			}
			s, err := bp.SyntheticStream(b, b.Walk)
			if err != nil {
				t.Fatal(err)
			}
			if err := reports.SyntheticPDF(&whole, w, doc); err != nil {
				t.Fatal(err)
			}
			if err := reports.SyntheticPDF(&streamed, s, doc); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(whole.Bytes(), streamed.Bytes()) {
			t.Errorf("analytic %v: the streamed report gives another PDF", analytic)
		}
		pages := pdfRuns(t, whole.Bytes())
		var all strings.Builder
		for p, runs := range pages {
			text := pageText(runs)
			all.WriteString(text)
			if want := "Página " + strconv.Itoa(p+1) + " de " + strconv.Itoa(len(pages)); !strings.Contains(text, want) {
				t.Errorf("analytic %v: page %d lacks %q", analytic, p+1, want)
			}
		}
		for _, w := range []string{"(sem preço)", "Vazia", "Blocos", "Sapatas"} {
			if !strings.Contains(all.String(), w) {
				t.Errorf("analytic %v: the PDF lacks %q", analytic, w)
			}
		}
	}
}

// With the BDI on the final total a line prints no BDI rate, unit price
// with BDI or total with BDI (they would repeat its figures without BDI):
// its row has the 9 cells Item … Total, Peso; the summary carries the BDI
// and the header says how it is made.
func TestPDFBDIOnFinalTotal(t *testing.T) {
	b := bigBudget(30)
	b.BDIMode = domain.BDIOnFinalTotal
	r, err := domain.NewBudgetPricer(bigWorld{}).Synthetic(b)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := reports.SyntheticPDF(&buf, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
		t.Fatal(err)
	}
	lines, all := 0, ""
	for _, runs := range pdfRuns(t, buf.Bytes()) {
		all += pageText(runs) + " "
		for _, row := range pdfRows(runs) {
			if len(row) > 3 && (row[1] == "SINAPI" || row[1] == "MYBASE") {
				lines++
				if len(row) != 9 {
					t.Errorf("line %s has %d cells, want 9 (no BDI columns): %q", row[0], len(row), row)
				}
			}
		}
	}
	if lines != 30 {
		t.Errorf("%d lines read, want 30", lines)
	}
	for _, w := range []string{"BDI = total sem BDI × taxa", "BDI (22,23%; fornecimento 15,28% sobre o total) " + brlText(r.BDIValue),
		"Total com BDI " + brlText(r.TotalWithBDI)} {
		if !strings.Contains(all, w) {
			t.Errorf("the PDF lacks %q", w)
		}
	}
}

// The ABC curve's PDF prints every resource's description whole, its unit
// price with every place (the own resource's 12,345), the total under
// "Total" and each class's percent under "%".
func TestABCPDFWhole(t *testing.T) {
	b := bigBudget(60)
	r, err := domain.NewBudgetPricer(bigWorld{}).ABC(b, domain.DefaultABCLimits())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) < 5 {
		t.Fatalf("%d resources in the curve", len(r.Rows))
	}
	small := abcReport(t)
	small.Budget = b
	for _, r := range []*domain.ABCReport{r, small} {
		var buf bytes.Buffer
		if err := reports.ABCPDF(&buf, r, reports.Document{Company: "Construtora Alfa"}); err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		var rows [][]string
		for _, runs := range pdfRuns(t, buf.Bytes()) {
			all.WriteString(pageText(runs) + " ")
			rows = append(rows, pdfRows(runs)...)
		}
		text := all.String()
		for _, row := range r.Rows {
			if !strings.Contains(text, spaces(row.Description)) {
				t.Errorf("%q is not printed whole", row.Description)
			}
		}
		if strings.Contains(text, "…") {
			t.Errorf("something is cut with …")
		}
		read := 0
		for _, cells := range rows {
			if len(cells) != 11 || cells[0] == "Pos." {
				continue
			}
			pos, err := strconv.Atoi(cells[0])
			if err != nil || pos < 1 || pos > len(r.Rows) {
				continue
			}
			want := r.Rows[pos-1]
			if cells[7] != brlText(want.Total) || cells[5] != reports.Quantity(want.Quantity) || brNumber(t, cells[6]).Cmp(want.UnitPrice) != 0 {
				t.Errorf("row %d reads %q: total %s, quantity %s, unit price %s", pos, cells, want.Total, want.Quantity, want.UnitPrice)
			}
			read++
		}
		if read != len(r.Rows) {
			t.Errorf("%d rows read of %d", read, len(r.Rows))
		}
		if r == small && !strings.Contains(text, "12,345") {
			t.Errorf("the own resource's unit price 12,345 is not printed whole")
		}
	}
}
