package bankfiles_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// The abuse tests: files that would cost without bound are refused within
// the caps, with an error naming the file and the cap, while the heap grows
// by less than heapBound (sampled through runtime/metrics while the file is
// read; no timing is asserted).

const heapBound = 64 << 20

// sicroBase is the real workbook the abusive files are made from.
var sicroBase = filepath.Join("testdata", "sicro-al-202401", "SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx")

// heapPeak runs fn while sampling the live heap, and returns how far the
// heap rose above where it was before fn, and fn's error.
func heapPeak(t *testing.T, fn func() error) (uint64, error) {
	t.Helper()
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak uint64
	var mu sync.Mutex
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			v := read()
			mu.Lock()
			peak = max(peak, v)
			mu.Unlock()
			select {
			case <-stop:
				return
			default:
				time.Sleep(200 * time.Microsecond)
			}
		}
	}()
	err := fn()
	peak = max(peak, read())
	close(stop)
	<-done
	mu.Lock()
	defer mu.Unlock()
	if peak < base {
		return 0, err
	}
	return peak - base, err
}

// writeBook writes to path a copy of the real workbook base with part
// replaced by what body writes (deflated as it is written) or, when body
// is nil, left out; extra parts are added the same way.
func writeBook(t *testing.T, path, base string, parts map[string]func(io.Writer) error) {
	t.Helper()
	zr, err := zip.OpenReader(base)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	left := map[string]bool{}
	for name := range parts {
		left[name] = true
	}
	put := func(name string, body func(io.Writer) error) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		if err := body(w); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range zr.File {
		if body, ok := parts[f.Name]; ok {
			delete(left, f.Name)
			if body != nil {
				put(f.Name, body)
			}
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	for name := range left {
		put(name, parts[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// repeat writes s n times.
func repeat(s string, n int) func(io.Writer) error {
	return func(w io.Writer) error {
		chunk := []byte(strings.Repeat(s, max(1, (64<<10)/len(s))))
		per := len(chunk) / len(s)
		for n > 0 {
			k := min(n, per)
			if _, err := w.Write(chunk[:k*len(s)]); err != nil {
				return err
			}
			n -= k
		}
		return nil
	}
}

// zeros writes n zero bytes.
func zeros(n int64) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.CopyN(w, zeroReader{}, n)
		return err
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// addSicro reads path as a SICRO file, within l.
func addSicro(l bankfiles.Limits) func(path string) error {
	return func(path string) error {
		im, err := bankfiles.NewImporter(bankfiles.OfficialSicro(), "AL", "01/2024")
		if err != nil {
			return err
		}
		im.Limits = l
		_, err = im.AddFile(context.Background(), path)
		return err
	}
}

// openWorkbook opens path as the national workbook, within l.
func openWorkbook(l bankfiles.Limits) func(path string) error {
	return func(path string) error {
		wf, err := bankfiles.OpenSinapiWorkbookWith(context.Background(), path, l)
		if err == nil {
			wf.Close()
		}
		return err
	}
}

// wantCap checks that err is a LimitError of the cap on file, named in its
// message, and that the heap stayed within heapBound.
func wantCap(t *testing.T, err error, grew uint64, file, cap string) {
	t.Helper()
	var le *bankfiles.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %v (%T), want a LimitError of the cap on the %s", err, err, cap)
	}
	if le.Cap != cap {
		t.Errorf("cap %q, want %q (%v)", le.Cap, cap, err)
	}
	if msg := err.Error(); !strings.Contains(msg, file) || !strings.Contains(msg, cap) {
		t.Errorf("message %q names neither the file %s nor the cap %q", msg, file, cap)
	}
	if grew > heapBound {
		t.Errorf("the heap grew by %d MiB reading %s, want under %d MiB", grew>>20, file, heapBound>>20)
	}
	t.Logf("%v; heap +%.1f MiB", err, float64(grew)/(1<<20))
}

// TestZipBomb: a worksheet of 1 GB of zeros (1 MB deflated) in a
// workbook, and the same as the workbook of Caixa's monthly zip, refused by
// their headers without being inflated.
func TestZipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1 GB through deflate")
	}
	dir := t.TempDir()
	book := filepath.Join(dir, "bomb.xlsx")
	writeBook(t, book, sicroBase, map[string]func(io.Writer) error{"xl/worksheets/sheet1.xml": zeros(1 << 30)})
	for name, open := range map[string]func(string) error{"per-state file": addSicro(bankfiles.Limits{}), "national workbook": openWorkbook(bankfiles.Limits{})} {
		t.Run(name, func(t *testing.T) {
			grew, err := heapPeak(t, func() error { return open(book) })
			wantCap(t, err, grew, book, bankfiles.CapRatio)
		})
	}
	t.Run("monthly zip", func(t *testing.T) {
		pkg := filepath.Join(dir, "SINAPI-2026-08-formato-xlsx.zip")
		f, err := os.Create(pkg)
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		w, _ := zw.Create("SINAPI_Referência_2026_08.xlsx")
		if err := zeros(1 << 30)(w); err != nil {
			t.Fatal(err)
		}
		zw.Close()
		f.Close()
		grew, err := heapPeak(t, func() error { return openWorkbook(bankfiles.Limits{})(pkg) })
		wantCap(t, err, grew, pkg, bankfiles.CapRatio)
	})
}

// TestZipHeaderLies: an entry whose header says 1 KB and that inflates to
// 256 MB is refused; so is one within the ratio cap but over the entry cap
// once read.
func TestZipHeaderLies(t *testing.T) {
	dir := t.TempDir()
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestSpeed)
	if err := zeros(256 << 20)(fw); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	book := filepath.Join(dir, "liar.xlsx")
	writeBook(t, book, sicroBase, map[string]func(io.Writer) error{"xl/worksheets/sheet1.xml": nil})
	// Add the lying entry with its compressed bytes as they are.
	zr, err := zip.OpenReader(book)
	if err != nil {
		t.Fatal(err)
	}
	liar := filepath.Join(dir, "liar2.xlsx")
	out, _ := os.Create(liar)
	zw := zip.NewWriter(out)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	zr.Close()
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 1024, CRC32: crc32.ChecksumIEEE(make([]byte, 1024))})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(packed.Bytes())
	zw.Close()
	out.Close()
	grew, err := heapPeak(t, func() error { return addSicro(bankfiles.Limits{})(liar) })
	if err == nil || !strings.Contains(err.Error(), liar) {
		t.Fatalf("a lying header: error %v, want one naming %s", err, liar)
	}
	if grew > heapBound {
		t.Errorf("the heap grew by %d MiB", grew>>20)
	}

	// Within the ratio (text that compresses 20 to 1), over a lowered
	// entry cap: caught while it is read.
	big := filepath.Join(dir, "big.xlsx")
	writeBook(t, big, sicroBase, map[string]func(io.Writer) error{"xl/sharedStrings.xml": func(w io.Writer) error {
		for i := 0; i < 400_000; i++ {
			fmt.Fprintf(w, "<si><t>%d %x</t></si>", i, i*7919)
		}
		return nil
	}})
	grew, err = heapPeak(t, func() error { return addSicro(bankfiles.Limits{EntryBytes: 4 << 20})(big) })
	wantCap(t, err, grew, big, bankfiles.CapEntryBytes)
	grew, err = heapPeak(t, func() error { return addSicro(bankfiles.Limits{TotalBytes: 4 << 20})(big) })
	wantCap(t, err, grew, big, bankfiles.CapTotalBytes)
}

// TestZipEntries: a zip of more entries than the cap.
func TestZipEntries(t *testing.T) {
	dir := t.TempDir()
	parts := map[string]func(io.Writer) error{}
	for i := 0; i < 50; i++ {
		parts[fmt.Sprintf("xl/media/image%d.png", i)] = repeat("x", 10)
	}
	book := filepath.Join(dir, "many.xlsx")
	writeBook(t, book, sicroBase, parts)
	grew, err := heapPeak(t, func() error { return addSicro(bankfiles.Limits{Entries: 40})(book) })
	wantCap(t, err, grew, book, bankfiles.CapEntries)
	if err := addSicro(bankfiles.Limits{})(book); err != nil {
		t.Errorf("within the default caps: %v", err)
	}
}

// TestXMLBomb: entity expansion (a DTD; encoding/xml would not expand the
// entities anyway, see TestXMLNoCustomEntities), elements nested 200,000
// deep, and one cell of 64 MB.
func TestXMLBomb(t *testing.T) {
	dir := t.TempDir()
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
		`<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>` +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>`
	cases := []struct {
		name string
		part func(io.Writer) error
		cap  string
	}{
		{"entities", func(w io.Writer) error { _, err := io.WriteString(w, laughs); return err }, bankfiles.CapXMLDTD},
		{"depth", func(w io.Writer) error {
			io.WriteString(w, `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
			return repeat("<row>", 200_000)(w) // 1 MB: under the ratio cap's floor
		}, bankfiles.CapXMLDepth},
		{"huge cell", func(w io.Writer) error {
			io.WriteString(w, `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`)
			for i := 0; i < 64<<20/16; i++ {
				fmt.Fprintf(w, "%015x ", i) // text that compresses little, under the ratio cap
			}
			_, err := io.WriteString(w, `</t></is></c></row></sheetData></worksheet>`)
			return err
		}, bankfiles.CapXMLToken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			book := filepath.Join(dir, c.name+".xlsx")
			writeBook(t, book, sicroBase, map[string]func(io.Writer) error{"xl/worksheets/sheet1.xml": c.part})
			grew, err := heapPeak(t, func() error { return addSicro(bankfiles.Limits{})(book) })
			wantCap(t, err, grew, book, c.cap)
		})
	}
}

// TestXMLNoCustomEntities: encoding/xml, which excelize parses with,
// expands no entity a DTD declares: the reference is an error, not text.
func TestXMLNoCustomEntities(t *testing.T) {
	d := xml.NewDecoder(strings.NewReader(`<!DOCTYPE x [<!ENTITY a "aaaaaaaa">]><x>&a;&a;</x>`))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			t.Fatal("the document was read whole: the entity was expanded or ignored")
		}
		if err != nil {
			if !strings.Contains(err.Error(), "entity") {
				t.Errorf("error %v, want one about the entity", err)
			}
			return
		}
		if cd, ok := tok.(xml.CharData); ok && strings.Contains(string(cd), "aaaa") {
			t.Fatalf("the entity was expanded: %q", cd)
		}
	}
}

// TestHugeSharedStrings: a shared strings table of 2.5 million distinct
// strings (excelize would keep an entry per string in memory) is refused
// by its count, read as a stream.
func TestHugeSharedStrings(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 60 MB through deflate")
	}
	book := filepath.Join(t.TempDir(), "strings.xlsx")
	writeBook(t, book, sicroBase, map[string]func(io.Writer) error{"xl/sharedStrings.xml": func(w io.Writer) error {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+"\n"+`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
		for i := 0; i < 2_500_000; i++ {
			fmt.Fprintf(w, "<si><t>%x</t></si>", i*2654435761)
		}
		_, err := io.WriteString(w, "</sst>")
		return err
	}})
	grew, err := heapPeak(t, func() error { return addSicro(bankfiles.Limits{})(book) })
	wantCap(t, err, grew, book, bankfiles.CapSharedStrings)
}

// TestRealFilesWithinCaps: every real workbook of testdata is read within
// the default caps (the caps' margin is in docs/importing.md).
func TestRealFilesWithinCaps(t *testing.T) {
	books, _ := filepath.Glob(filepath.Join("testdata", "sicro-al-202401", "*.xlsx"))
	for _, b := range books {
		if err := addSicro(bankfiles.Limits{})(b); err != nil {
			var le *bankfiles.LimitError
			if errors.As(err, &le) {
				t.Errorf("%s: %v", b, err)
			}
		}
	}
	wf, err := bankfiles.OpenSinapiWorkbookWith(context.Background(), filepath.Join("testdata", "sinapi-workbook-202608", "SINAPI_Referencia_2026_08.xlsx"), bankfiles.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	wf.Close()
}

// TestCancelledCheck: a cancelled context stops the check of a workbook.
func TestCancelledCheck(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := bankfiles.OpenSinapiWorkbookWith(ctx, filepath.Join("testdata", "sinapi-workbook-202608", "SINAPI_Referencia_2026_08.xlsx"), bankfiles.Limits{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestHeapPeakSees: the sampler sees a heap that grows, so that the bounds
// above can fail.
func TestHeapPeakSees(t *testing.T) {
	var keep [][]byte
	grew, _ := heapPeak(t, func() error {
		for i := 0; i < 100; i++ {
			keep = append(keep, make([]byte, 1<<20))
		}
		return nil
	})
	runtime.KeepAlive(keep)
	if grew < 90<<20 {
		t.Fatalf("100 MiB held, the sampler saw %d MiB", grew>>20)
	}
}

// TestCSVLongLine: a CSV file of one line of 64 MB (encoding/csv would
// hold the record whole) is refused at the line cap.
func TestCSVLongLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "CODIGO,DESCRICAO,UNIDADE,CUSTO\n1,")
	if err := repeat("abcdefgh", 8<<20)(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	grew, err := heapPeak(t, func() error { return addSicro(bankfiles.Limits{})(path) })
	wantCap(t, err, grew, path, bankfiles.CapCSVLine)
}
