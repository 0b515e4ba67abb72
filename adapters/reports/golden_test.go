package reports_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/reports"
	"github.com/costdb/costdb/domain"
)

// The documents' bytes, pinned: the SHA-256 of each client document of the
// test budgets (the small demo budget with and without a frozen version, the
// analytic one with extra lines, the ABC curve, the schedule, and a
// generated budget of 2,000 lines streamed as the HTTP answers stream it),
// taken before the workbook's rows and the PDF's text were written by
// faster code (docs/performance.md, "Documents: the rows' XML and the
// text layout"). A change of any byte fails here: a change meant to alter
// a document updates the hash after the document was rendered and looked
// at.
func TestDocumentBytesPinned(t *testing.T) {
	want := map[string]string{}
	for _, c := range goldenDocuments(t) {
		var buf bytes.Buffer
		if err := c.write(&buf); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := documentHash(t, c.name, buf.Bytes())
		if w := pinnedDocuments[c.name]; got != w {
			t.Errorf("%s: SHA-256 %s, want %s (%d bytes)", c.name, got, w, buf.Len())
		}
		want[c.name] = got
	}
	if len(want) != len(pinnedDocuments) {
		t.Errorf("%d documents written, %d pinned", len(want), len(pinnedDocuments))
	}
}

// documentHash is the SHA-256 of a PDF's bytes, or of a workbook's entries
// (each name and its XML, in the order of their names: excelize writes
// some sheets in the order of a map).
func documentHash(t *testing.T, name string, body []byte) string {
	t.Helper()
	h := sha256.New()
	if !strings.HasSuffix(name, ".xlsx") {
		h.Write(body)
		return hex.EncodeToString(h.Sum(nil))
	}
	z, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	files := slices.SortedFunc(slices.Values(z.File), func(a, b *zip.File) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range files {
		rc, err := f.Open()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fmt.Fprintf(h, "%s\n", f.Name)
		if _, err := io.Copy(h, rc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rc.Close()
	}
	return hex.EncodeToString(h.Sum(nil))
}

type goldenDocument struct {
	name  string
	write func(w io.Writer) error
}

func goldenDocuments(t *testing.T) []goldenDocument {
	doc := reports.Document{Company: "Construtora Alfa"}
	vdoc := reports.Document{Company: "Construtora Alfa", Version: docVersion()}
	final := docSynthetic(2)
	final.Budget.BDIMode = domain.BDIOnFinalTotal
	abc := abcReport(t)
	abc.Budget = docBudget()
	sched := docScheduleTable(t)
	big := bigBudget(2000)
	p := domain.NewBudgetPricer(bigWorld{})
	stream := func(analytic bool, pdf bool) func(w io.Writer) error {
		return func(w io.Writer) error {
			if analytic {
				r, err := p.AnalyticStream(big, big.Walk)
				if err != nil {
					return err
				}
				if pdf {
					return reports.AnalyticPDF(w, r, doc)
				}
				return reports.AnalyticXLSX(w, r, doc)
			}
			r, err := p.SyntheticStream(big, big.Walk)
			if err != nil {
				return err
			}
			if pdf {
				return reports.SyntheticPDF(w, r, doc)
			}
			return reports.SyntheticXLSX(w, r, doc)
		}
	}
	return []goldenDocument{
		{"synthetic.xlsx", func(w io.Writer) error { return reports.SyntheticXLSX(w, docSynthetic(0), doc) }},
		{"synthetic.pdf", func(w io.Writer) error { return reports.SyntheticPDF(w, docSynthetic(0), doc) }},
		{"synthetic-version.xlsx", func(w io.Writer) error { return reports.SyntheticXLSX(w, docSynthetic(0), vdoc) }},
		{"synthetic-version.pdf", func(w io.Writer) error { return reports.SyntheticPDF(w, docSynthetic(0), vdoc) }},
		{"synthetic-final-bdi.xlsx", func(w io.Writer) error { return reports.SyntheticXLSX(w, final, doc) }},
		{"synthetic-final-bdi.pdf", func(w io.Writer) error { return reports.SyntheticPDF(w, final, doc) }},
		{"analytic.xlsx", func(w io.Writer) error { return reports.AnalyticXLSX(w, docAnalytic(3), doc) }},
		{"analytic.pdf", func(w io.Writer) error { return reports.AnalyticPDF(w, docAnalytic(3), doc) }},
		{"abc.xlsx", func(w io.Writer) error { return reports.ABCXLSX(w, abc, doc) }},
		{"abc.pdf", func(w io.Writer) error { return reports.ABCPDF(w, abc, doc) }},
		{"schedule.xlsx", func(w io.Writer) error { return reports.ScheduleXLSX(w, sched, doc) }},
		{"schedule.pdf", func(w io.Writer) error { return reports.SchedulePDF(w, sched, doc) }},
		{"analytic-odd.xlsx", func(w io.Writer) error { return reports.AnalyticXLSX(w, docAnalyticOdd(), doc) }},
		{"analytic-odd.pdf", func(w io.Writer) error { return reports.AnalyticPDF(w, docAnalyticOdd(), doc) }},
		{"big-synthetic.xlsx", stream(false, false)},
		{"big-synthetic.pdf", stream(false, true)},
		{"big-analytic.xlsx", stream(true, false)},
		{"big-analytic.pdf", stream(true, true)},
	}
}

// docAnalyticOdd is docAnalytic(2) with what a table's cells escape or
// leave out: a line without a price (missing) whose description has XML's
// special characters and an escaped character's look (_x0041_), an item
// without a price, a description that starts with a space.
func docAnalyticOdd() *domain.AnalyticReport {
	r := docAnalytic(2)
	line := &r.Rows[2]
	line.Missing, line.Description = true, `ALVENARIA <sem preço> & "teste" _x0041_ 'fim'`
	items := append([]domain.AnalyticItem(nil), line.Items...)
	items[0].Missing, items[0].Description = true, " BLOCO_x00e9_ & <outro>"
	line.Items = items
	return r
}

var pinnedDocuments = map[string]string{
	"analytic-odd.xlsx":        "c767887b0d4e5c3c5d25edea8d4e51cdc36bc829da5a05d31af3dc43820f9066",
	"analytic-odd.pdf":         "74ad4e9b4fe1b7f2c024780be0e778a563faa66cb0a1304275b3127e75aa7f58",
	"synthetic.xlsx":           "6df0beaee5664798d2db940db5a1edbd4dd4398975295c891b9e80a67e4880da",
	"synthetic.pdf":            "d2e01fe710e8d15b79068eac51713c13de6e26c77bd0777edaed0ae850d0ce1d",
	"synthetic-version.xlsx":   "ebd56ce9579340255c95d1fab63dbbca3c0eacff342d8cc7c39c383f0eb5c555",
	"synthetic-version.pdf":    "1b4e539f4c356ea6b1de336316ec0b0281d075cc9e8c74e36ec904c76e7ae159",
	"synthetic-final-bdi.xlsx": "19ef9be4598a79671da4c2fcfbc4a8b62421061f0aac919c61efe28f668879c1",
	"synthetic-final-bdi.pdf":  "6d8130d63455495951bef859ef44b8f8f5c8edb00b58533c7a2a76e2ddb5cb5b",
	"analytic.xlsx":            "4ab542df84fa8ed6603b1775537b02577142fd3601e806367624ea1c0bb0c9c6",
	"analytic.pdf":             "004e2cdc9e5e4819e008f00cc0ab75b7bb62709686418a934d6773cdfe3f4b90",
	"abc.xlsx":                 "4e96c2a9cccba59868ad5ff4bb2209e3978dcb4476d737a6f3dccca20833c34d",
	"abc.pdf":                  "44b9d81bdef38862d19538b14abb2e467ce7432e6e03974c0800c931cbdf678f",
	"schedule.xlsx":            "aa9d3f2af82ae4ef4cd88bae32372a16e580223dc22d9004cc3d598601001a65",
	"schedule.pdf":             "b65670ff006e43e942034159c911a9ce7eb254b2ba7cf5615a0e1ada20d4a5a4",
	"big-synthetic.xlsx":       "2fd13b5d6c23e5a0aaa5e603d15aa28b94dab1ab681011ed318c079396303c73",
	"big-synthetic.pdf":        "96f4184eda3f76b3b0e33a96d2021a90c39612908a75f27ea7da851d6bcd17d6",
	"big-analytic.xlsx":        "9a5f82a38f6fc8bfdc482ec56ee27ff7d73f35bb1a86cbb3a5376e62a09f8c87",
	"big-analytic.pdf":         "f4865a6f795b34c5071dea801fce632eaa3e437d2e49336de70341e6b946b335",
}
