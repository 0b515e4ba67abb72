package reports

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/klauspost/compress/zlib"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The PDF documents are written by pdfWriter as their pages are made: a
// page's content goes out when the page is done and only the objects'
// offsets (8 bytes an object, three objects a page) stay until the cross
// reference table at the end. What needs the number of pages (the footer's
// "Página n de N") is each page's second content stream, written with the
// page's dictionary at the end (finish). The libraries looked at hold every page until
// the document is written (gopdf keeps each page's drawing operations,
// gofpdf its whole output buffer, baseline-pdf each page's content stream),
// which made a budget of 100,000 lines take gigabytes; docs/decisions.md, "PDF with a writer of our own and the embedded Go fonts"
// has the figures.
//
// The text is set in the Go fonts (golang.org/x/image/font/gofont), as
// before: each embedded as a CIDFontType2 font with the identity encoding,
// its text written as glyph numbers; the outlines, the widths and the
// Unicode map of the glyphs a document used are written at its end (the
// map lets readers extract the text).

// pdfFace is an embeddable TrueType font: its glyph numbers and advances
// for the runes of the Basic Multilingual Plane, and its file.
type pdfFace struct {
	name      string // PostScript name
	glyph     []uint16
	advance   []uint16 // of each glyph, in thousandths of the font size
	numGlyphs int
	ascent    int // in thousandths
	descent   int
	capHeight int
	bbox      [4]int
	ttf       []byte
}

var (
	faceOnce    sync.Once
	faceRegular *pdfFace
	faceBold    *pdfFace
	faceErr     error
)

// pdfFaces returns the regular and bold Go fonts, parsed on first use.
func pdfFaces() (regular, bold *pdfFace, err error) {
	faceOnce.Do(func() {
		if faceRegular, faceErr = newPDFFace(goregular.TTF); faceErr != nil {
			return
		}
		faceBold, faceErr = newPDFFace(gobold.TTF)
	})
	return faceRegular, faceBold, faceErr
}

func newPDFFace(ttf []byte) (*pdfFace, error) {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		return nil, err
	}
	var buf sfnt.Buffer
	upem := int(f.UnitsPerEm())
	ppem := fixed.I(upem)
	thousandths := func(v fixed.Int26_6) int { return int(math.Round(float64(v) / 64 * 1000 / float64(upem))) }
	pf := &pdfFace{glyph: make([]uint16, 0x10000), numGlyphs: f.NumGlyphs()}
	if pf.name, err = f.Name(&buf, sfnt.NameIDPostScript); err != nil {
		return nil, err
	}
	pf.advance = make([]uint16, pf.numGlyphs)
	for g := range pf.numGlyphs {
		adv, err := f.GlyphAdvance(&buf, sfnt.GlyphIndex(g), ppem, font.HintingNone)
		if err != nil {
			return nil, err
		}
		// In whole thousandths, cut as gopdf did, so that text keeps its width.
		pf.advance[g] = uint16(int(adv>>6) * 1000 / upem)
	}
	for r := range rune(0x10000) {
		if g, err := f.GlyphIndex(&buf, r); err == nil {
			pf.glyph[r] = uint16(g)
		}
	}
	m, err := f.Metrics(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	pf.ascent, pf.descent, pf.capHeight = thousandths(m.Ascent), -thousandths(m.Descent), thousandths(m.CapHeight)
	b, err := f.Bounds(&buf, ppem, font.HintingNone)
	if err != nil {
		return nil, err
	}
	// sfnt's bounds grow downwards; a PDF's upwards.
	pf.bbox = [4]int{thousandths(b.Min.X), -thousandths(b.Max.Y), thousandths(b.Max.X), -thousandths(b.Min.Y)}
	pf.ttf = ttf
	return pf, nil
}

// glyphOf is r's glyph (0 when the font lacks it).
func (f *pdfFace) glyphOf(r rune) uint16 {
	if r < 0 || int(r) >= len(f.glyph) {
		return 0
	}
	return f.glyph[r]
}

// width is s's width at size points (runes the font lacks are left out,
// as they are when drawn).
func (f *pdfFace) width(s string, size float64) float64 {
	return float64(f.units(s)) * size / 1000
}

// units is s's width in thousandths of the size (runes the font lacks left
// out): width at any size is units × size / 1000.
func (f *pdfFace) units(s string) int {
	w := 0
	for _, r := range s {
		if g := f.glyphOf(r); g != 0 {
			w += int(f.advance[g])
		}
	}
	return w
}

// fit shortens s to width at size points (less 4 points of padding): the
// longest start of it that fits, its last rune made "…" when something
// was cut; never less than one rune.
func (f *pdfFace) fit(s string, size, width float64) string {
	limit := int(math.Floor((width - 4) * 1000 / size))
	w, n := 0, 0
	for _, r := range s {
		if g := f.glyphOf(r); g != 0 {
			w += int(f.advance[g])
		}
		n++
	}
	if w <= limit || n <= 1 {
		return s
	}
	// The longest start of at least one rune whose width fits: it ends
	// where the rune that passes the limit starts (cut); the rune before
	// that starts at last.
	w, kept, last, cut := 0, 0, 0, len(s)
	for i, r := range s {
		if g := f.glyphOf(r); g != 0 {
			w += int(f.advance[g])
		}
		if w > limit && kept >= 1 {
			cut = i
			break
		}
		last = i
		kept++
	}
	if kept <= 1 {
		return s[:cut]
	}
	return s[:last] + "…"
}

// wrap breaks s into lines that fit width at size points (less 4 points
// of padding, as fit), at spaces; a word wider than a line is broken
// between runes. The lines are slices of s, appended to out; s gives one
// line at least (empty when s is). Runs of spaces where a line breaks are
// dropped, so joining the lines with one space gives s back when it has
// single spaces.
func (f *pdfFace) wrap(s string, size, width float64, out []string) []string {
	limit := int(math.Floor((width - 4) * 1000 / size))
	if limit < 1 {
		limit = 1
	}
	adv := func(r rune) int {
		if g := f.glyphOf(r); g != 0 {
			return int(f.advance[g])
		}
		return 0
	}
	for {
		// The longest start of s that fits: up to the last space before
		// the limit, else (one word too wide) the runes that fit, one at
		// least.
		w, brk, fitEnd := 0, -1, len(s)
		for i, r := range s {
			if r == ' ' {
				brk = i
			}
			if w += adv(r); w > limit {
				fitEnd = i
				break
			}
		}
		if fitEnd == len(s) {
			return append(out, s)
		}
		end, next := fitEnd, fitEnd
		if brk > 0 {
			end, next = brk, brk
		} else if fitEnd == 0 {
			_, n := utf8.DecodeRuneInString(s)
			end, next = n, n
		}
		line := strings.TrimRight(s[:end], " ")
		if line == "" { // spaces only before the break
			line = s[:end]
		}
		out = append(out, line)
		s = strings.TrimLeft(s[next:], " ")
		if s == "" {
			return out
		}
	}
}

// pdfFont is a face as one document uses it: its resource name and the
// glyphs it drew.
type pdfFont struct {
	*pdfFace
	res   string
	obj   int    // the Type0 font's object; the CIDFont, descriptor, file and map follow
	runes []rune // per glyph, the rune drawn with it (0: unused)
}

// pdfWriter writes a PDF as it goes (see above). Its methods stop at the
// first error and keep it (err).
type pdfWriter struct {
	out     *bufio.Writer
	n       int64
	offsets []int64 // of object i+1
	err     error
	page    bytes.Buffer // the content of the page being made
	z       bytes.Buffer
	zw      *zlib.Writer
	fonts   []*pdfFont
	pageW   float64
	pageH   float64
	pages   int
	font    *pdfFont // the page's current font and size (nil: none yet)
	size    float64
	images  []*pdfImage // written at the start (newPDFWriter), drawn by drawImage
	first   int         // the object of the first page's dictionary
	// ahead are the pages being deflated while the next are laid out, in
	// page order (endPage); at most deflateAhead.
	ahead        []*deflatedPage
	deflateAhead int
}

// pdfDeflateAhead is how many pages are deflated, each by a goroutine of
// its own, while the next pages are laid out: deflating is about half of
// a PDF's CPU, and laying out the other half, so on two cores a document
// completes in little more than its layout's time (docs/performance.md,
// "PDF pages deflated beside the layout"). The bytes are those of
// deflating each page in turn: each page has its own deflater, and the
// pages are written in their order. 0 deflates each page in turn.
var pdfDeflateAhead = 4

// deflatedPage is a page's content deflated by a goroutine of its own.
type deflatedPage struct {
	obj  int           // the content stream's object
	src  *bytes.Buffer // the page's content
	z    *bytes.Buffer // deflated
	err  error
	done chan struct{} // closed when z is complete
}

// pdfBuffers and pdfDeflaters are reused by the pages deflated ahead.
var (
	pdfBuffers   = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	pdfDeflaters = sync.Pool{New: func() any {
		zw, _ := zlib.NewWriterLevel(nil, pdfCompression)
		return zw
	}}
)

// pdfCompression is the deflate level of the pages' content: level 1, the
// fastest, whose start for each page also costs little (level 2 and above
// clear their tables, 11% of a 5,000-line PDF's time). Against level 2 it
// makes files about 20% larger in 65–75% of the time (docs/performance.md, "XLSX and PDF of 50,000-line budgets streamed");
// level 2 made them 20% larger than the default level (6) in about 55% of
// its time. The deflater is klauspost/compress's zlib, not the standard
// library's: compressing was 52% of a PDF's CPU time; at level 1 it takes
// the whole PDF from 190 to 127 ms of CPU (analytic, 5,000 lines; 54 to
// 39 ms synthetic) for files 1–2% smaller (docs/performance.md, "documents of 50,000 lines within 3× the JSON report").
const pdfCompression = 1

// Object numbers: the catalog, the page tree, the information dictionary,
// then five per font, then the images (one each, two with a soft mask),
// then three per page (its dictionary, its content and its footer's).
const (
	pdfCatalog = 1
	pdfPages   = 2
	pdfInfo    = 3
	pdfFonts   = 4
)

// newPDFWriter starts a document of pages of w × h points with the
// regular and bold Go fonts (resources F1 and F2), its information
// dictionary and the images given (resources Im1, Im2…; written here, so
// that a page drawing them names objects already out).
func newPDFWriter(w io.Writer, pageW, pageH float64, title, author string, created time.Time, images ...*pdfImage) (*pdfWriter, error) {
	regular, bold, err := pdfFaces()
	if err != nil {
		return nil, err
	}
	pw := &pdfWriter{out: bufio.NewWriterSize(w, 64<<10), pageW: pageW, pageH: pageH, deflateAhead: pdfDeflateAhead}
	pw.zw, _ = zlib.NewWriterLevel(&pw.z, pdfCompression)
	for i, f := range []*pdfFace{regular, bold} {
		pw.fonts = append(pw.fonts, &pdfFont{pdfFace: f, res: fmt.Sprintf("F%d", i+1), obj: pdfFonts + 5*i, runes: make([]rune, f.numGlyphs)})
	}
	pw.first = pdfFonts + 5*len(pw.fonts)
	for i, im := range images {
		im.res, im.obj = fmt.Sprintf("Im%d", i+1), pw.first
		pw.first++
		if im.smask != nil {
			pw.first++
		}
		pw.images = append(pw.images, im)
	}
	pw.offsets = make([]int64, pw.first-1)
	pw.printf("%%PDF-1.7\n%%\xe2\xe3\xcf\xd3\n")
	pw.begin(pdfCatalog)
	pw.printf("<< /Type /Catalog /Pages %d 0 R >>\n", pdfPages)
	pw.end()
	pw.begin(pdfInfo)
	pw.printf("<< /Title %s /Author %s /Creator (costdb) /Producer (costdb) /CreationDate (%s) >>\n",
		pdfTextString(title), pdfTextString(author), created.UTC().Format("D:20060102150405Z"))
	pw.end()
	for _, im := range pw.images {
		pw.writeImage(im)
	}
	return pw, pw.err
}

func (pw *pdfWriter) write(b []byte) {
	if pw.err != nil {
		return
	}
	n, err := pw.out.Write(b)
	pw.n += int64(n)
	pw.err = err
}

func (pw *pdfWriter) printf(format string, args ...any) {
	if pw.err != nil {
		return
	}
	n, err := fmt.Fprintf(pw.out, format, args...)
	pw.n += int64(n)
	pw.err = err
}

// begin starts object obj (numbered in advance) here.
func (pw *pdfWriter) begin(obj int) {
	for len(pw.offsets) < obj {
		pw.offsets = append(pw.offsets, 0)
	}
	pw.offsets[obj-1] = pw.n
	pw.printf("%d 0 obj\n", obj)
}

func (pw *pdfWriter) end() { pw.printf("endobj\n") }

// pageObj is the dictionary object of page i (from 0); its content is the
// next object, its footer's content the one after.
func (pw *pdfWriter) pageObj(i int) int { return pw.first + 3*i }

// number appends v to the page with two decimals at most (and a space).
func (pw *pdfWriter) number(v float64) {
	pw.page.Write(appendPDFNumber(pw.page.AvailableBuffer(), v))
}

// appendPDFNumber appends v with two decimals at most, and a space.
func appendPDFNumber(b []byte, v float64) []byte {
	c := int64(math.Round(v * 100))
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	b = strconv.AppendInt(b, c/100, 10)
	if c%100 != 0 {
		b = append(b, '.', byte('0'+c%100/10))
		if c%10 != 0 {
			b = append(b, byte('0'+c%10))
		}
	}
	return append(b, ' ')
}

// text draws s with its baseline at (x, y), y from the top of the page.
// The font is set only when it changes (it stays set across text objects).
//
// The text object is appended to the page's free space and written once
// (a page of a long table draws a few hundred of them; byte by byte, they
// were a tenth of a budget PDF's layout).
func (pw *pdfWriter) text(f *pdfFont, size, x, y float64, s string) {
	b := append(pw.page.AvailableBuffer(), "BT "...)
	if f != pw.font || size != pw.size {
		pw.font, pw.size = f, size
		b = append(b, '/')
		b = append(b, f.res...)
		b = append(b, ' ')
		b = appendPDFNumber(b, size)
		b = append(b, "Tf "...)
	}
	b = appendPDFNumber(b, x)
	b = appendPDFNumber(b, pw.pageH-y)
	// The glyph numbers as a literal string, two bytes each (half the
	// bytes of a hexadecimal string, which the page's deflating pays for).
	b = append(b, "Td ("...)
	for _, r := range s {
		g := f.glyphOf(r)
		if g == 0 {
			continue
		}
		if f.runes[g] == 0 {
			f.runes[g] = r
		}
		b = appendLiteralByte(appendLiteralByte(b, byte(g>>8)), byte(g))
	}
	b = append(b, ") Tj ET\n"...)
	pw.page.Write(b)
}

// appendLiteralByte appends c to a literal string: escaped when it is a
// parenthesis, a backslash or an end of line (which a reader would read as
// a line feed).
func appendLiteralByte(b []byte, c byte) []byte {
	switch c {
	case '(', ')', '\\':
		return append(b, '\\', c)
	case '\r':
		return append(b, `\r`...)
	case '\n':
		return append(b, `\n`...)
	}
	return append(b, c)
}

// line draws a line of width lw from (x1, y1) to (x2, y2), y from the top.
func (pw *pdfWriter) line(lw, x1, y1, x2, y2 float64) {
	pw.page.WriteString("q ")
	pw.number(lw)
	pw.page.WriteString("w ")
	pw.number(x1)
	pw.number(pw.pageH - y1)
	pw.page.WriteString("m ")
	pw.number(x2)
	pw.number(pw.pageH - y2)
	pw.page.WriteString("l S Q\n")
}

// fill paints the rectangle of width w and height h whose top left corner
// is (x, y), y from the top, in gray (0 black, 1 white).
func (pw *pdfWriter) fill(gray, x, y, w, h float64) {
	pw.page.WriteString("q ")
	pw.number(gray)
	pw.page.WriteString("g ")
	pw.number(x)
	pw.number(pw.pageH - y - h)
	pw.number(w)
	pw.number(h)
	pw.page.WriteString("re f Q\n")
}

// drawImage draws im in the box of width w and height h whose top left
// corner is (x, y), y from the top.
func (pw *pdfWriter) drawImage(im *pdfImage, x, y, w, h float64) {
	pw.page.WriteString("q ")
	pw.number(w)
	pw.page.WriteString("0 0 ")
	pw.number(h)
	pw.number(x)
	pw.number(pw.pageH - y - h)
	pw.page.WriteString("cm /")
	pw.page.WriteString(im.res)
	pw.page.WriteString(" Do Q\n")
}

// endPage writes the page drawn since the last one (its content, deflated)
// and empties the page. The first page is sent on at once (the rest as the
// buffer fills), so that the reader sees the document start. The pages
// after it are deflated ahead (pdfDeflateAhead): each is handed to a
// goroutine, and written when it is done, in page order; endPage waits
// only when deflateAhead pages are still being deflated.
func (pw *pdfWriter) endPage() error {
	obj := pw.pageObj(pw.pages)
	pw.pages++
	if pw.pages == 1 || pw.deflateAhead == 0 {
		pw.content(obj+1, true)
		if pw.pages == 1 && pw.err == nil {
			pw.err = pw.out.Flush()
		}
		return pw.err
	}
	if pw.err != nil {
		return pw.err
	}
	d := &deflatedPage{obj: obj + 1, src: pdfBuffers.Get().(*bytes.Buffer), z: pdfBuffers.Get().(*bytes.Buffer), done: make(chan struct{})}
	d.src.Reset()
	d.src.Write(pw.page.Bytes())
	pw.page.Reset()
	pw.font = nil // a content stream starts without a font
	go func() {
		defer close(d.done)
		zw := pdfDeflaters.Get().(*zlib.Writer)
		d.z.Reset()
		zw.Reset(d.z)
		_, d.err = zw.Write(d.src.Bytes())
		if err := zw.Close(); d.err == nil {
			d.err = err
		}
		pdfDeflaters.Put(zw)
	}()
	pw.ahead = append(pw.ahead, d)
	for len(pw.ahead) > 0 {
		if len(pw.ahead) < pw.deflateAhead {
			select {
			case <-pw.ahead[0].done:
			default:
				return pw.err
			}
		}
		pw.writeDeflated()
	}
	return pw.err
}

// writeDeflated waits for the first page deflated ahead and writes it.
func (pw *pdfWriter) writeDeflated() {
	d := pw.ahead[0]
	pw.ahead = pw.ahead[1:]
	<-d.done
	if d.err != nil && pw.err == nil {
		pw.err = d.err
	}
	pw.begin(d.obj)
	pw.printf("<< /Length %d /Filter /FlateDecode >>\nstream\n", d.z.Len())
	pw.write(d.z.Bytes())
	pw.printf("\nendstream\n")
	pw.end()
	pdfBuffers.Put(d.src)
	pdfBuffers.Put(d.z)
}

// drain writes the pages still being deflated ahead.
func (pw *pdfWriter) drain() {
	for len(pw.ahead) > 0 {
		pw.writeDeflated()
	}
}

// content writes what was drawn since the last content as the stream
// object obj, deflated or not (a footer's few bytes: a deflater's start
// costs more than they would save), and empties the page.
func (pw *pdfWriter) content(obj int, deflate bool) {
	pw.drain()
	pw.font = nil // a content stream starts without a font
	pw.begin(obj)
	if !deflate {
		pw.printf("<< /Length %d >>\nstream\n", pw.page.Len())
		pw.write(pw.page.Bytes())
	} else {
		pw.z.Reset()
		pw.zw.Reset(&pw.z)
		pw.zw.Write(pw.page.Bytes())
		if err := pw.zw.Close(); err != nil && pw.err == nil {
			pw.err = err
		}
		pw.printf("<< /Length %d /Filter /FlateDecode >>\nstream\n", pw.z.Len())
		pw.write(pw.z.Bytes())
	}
	pw.page.Reset()
	pw.printf("\nendstream\n")
	pw.end()
}

// pageDict writes page i's dictionary: its two content streams, in turn.
func (pw *pdfWriter) pageDict(i int) {
	obj := pw.pageObj(i)
	pw.begin(obj)
	pw.printf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %s %s] /Contents [%d 0 R %d 0 R] /Resources << /Font <<",
		pdfPages, fmtNum(pw.pageW), fmtNum(pw.pageH), obj+1, obj+2)
	for _, f := range pw.fonts {
		pw.printf(" /%s %d 0 R", f.res, f.obj)
	}
	pw.printf(" >>")
	if len(pw.images) > 0 {
		pw.printf(" /XObject <<")
		for _, im := range pw.images {
			pw.printf(" /%s %d 0 R", im.res, im.obj)
		}
		pw.printf(" >>")
	}
	pw.printf(" >> >>\n")
	pw.end()
}

// finish writes each page's footer (footer draws that of page n of N, from
// 1) and dictionary, the fonts' widths and Unicode maps, the page tree,
// the cross reference table and the trailer, and flushes.
func (pw *pdfWriter) finish(footer func(page, pages int)) error {
	pw.drain()
	for i := range pw.pages {
		footer(i+1, pw.pages)
		pw.content(pw.pageObj(i)+2, false)
		pw.pageDict(i)
	}
	for _, f := range pw.fonts {
		pw.writeFont(f)
	}
	pw.begin(pdfPages)
	pw.printf("<< /Type /Pages /Count %d /Kids [", pw.pages)
	for i := range pw.pages {
		pw.printf("%d 0 R ", pw.pageObj(i))
	}
	pw.printf("] >>\n")
	pw.end()
	xref := pw.n
	pw.printf("xref\n0 %d\n0000000000 65535 f \n", len(pw.offsets)+1)
	for _, off := range pw.offsets {
		pw.printf("%010d 00000 n \n", off)
	}
	pw.printf("trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(pw.offsets)+1, pdfCatalog, pdfInfo, xref)
	if pw.err != nil {
		return pw.err
	}
	return pw.out.Flush()
}

// writeFont writes f's Type0 font, its CIDFont with the widths of the
// glyphs drawn, its descriptor, its file with the outlines of those glyphs
// only (subsetTTF) and its Unicode map.
func (pw *pdfWriter) writeFont(f *pdfFont) {
	var used []int
	drawn := make([]bool, len(f.runes))
	for g, r := range f.runes {
		if r != 0 {
			used = append(used, g)
			drawn[g] = true
		}
	}
	file, err := subsetTTF(f.ttf, drawn)
	if err != nil && pw.err == nil {
		pw.err = err
	}
	pw.z.Reset()
	pw.zw.Reset(&pw.z)
	pw.zw.Write(file)
	if err := pw.zw.Close(); err != nil && pw.err == nil {
		pw.err = err
	}
	pw.begin(f.obj + 3)
	pw.printf("<< /Length %d /Length1 %d /Filter /FlateDecode >>\nstream\n", pw.z.Len(), len(file))
	pw.write(pw.z.Bytes())
	pw.printf("\nendstream\n")
	pw.end()
	pw.begin(f.obj)
	pw.printf("<< /Type /Font /Subtype /Type0 /BaseFont /%s /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>\n",
		f.name, f.obj+1, f.obj+4)
	pw.end()
	pw.begin(f.obj + 1)
	pw.printf("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /%s /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor %d 0 R /CIDToGIDMap /Identity /DW %d /W [",
		f.name, f.obj+2, f.advance[0])
	for _, g := range used {
		pw.printf("%d [%d] ", g, f.advance[g])
	}
	pw.printf("] >>\n")
	pw.end()
	pw.begin(f.obj + 2)
	pw.printf("<< /Type /FontDescriptor /FontName /%s /Flags 32 /FontBBox [%d %d %d %d] /ItalicAngle 0 /Ascent %d /Descent %d /CapHeight %d /StemV 80 /FontFile2 %d 0 R >>\n",
		f.name, f.bbox[0], f.bbox[1], f.bbox[2], f.bbox[3], f.ascent, f.descent, f.capHeight, f.obj+3)
	pw.end()
	var cm bytes.Buffer
	cm.WriteString("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n")
	for chunk := range slices.Chunk(used, 100) {
		fmt.Fprintf(&cm, "%d beginbfchar\n", len(chunk))
		for _, g := range chunk {
			fmt.Fprintf(&cm, "<%04X> <", g)
			for _, u := range utf16.Encode([]rune{f.runes[g]}) {
				fmt.Fprintf(&cm, "%04X", u)
			}
			cm.WriteString(">\n")
		}
		cm.WriteString("endbfchar\n")
	}
	cm.WriteString("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")
	pw.begin(f.obj + 4)
	pw.printf("<< /Length %d >>\nstream\n", cm.Len())
	pw.write(cm.Bytes())
	pw.printf("\nendstream\n")
	pw.end()
}

// fmtNum writes v with two decimals at most.
func fmtNum(v float64) string {
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64)
}

// pdfTextString is s as a PDF text string: UTF-16BE with its byte order
// mark, in hexadecimal.
func pdfTextString(s string) string {
	var b bytes.Buffer
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}
