package reports

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"
)

// zipOf writes entries (name, content, in order) through newZip, the
// content in writes of the sizes given in turn.
func zipOf(w io.Writer, entries [][2]string, sizes []int) error {
	z := newZip(w)
	for _, e := range entries {
		ew, err := z.Create(e[0])
		if err != nil {
			return err
		}
		body := e[1]
		for i := 0; len(body) > 0; i++ {
			n := min(sizes[i%len(sizes)], len(body))
			if _, err := io.WriteString(ew, body[:n]); err != nil {
				return err
			}
			body = body[n:]
		}
	}
	return z.Close()
}

// TestDeflateAhead: entries deflated beside their writing unzip to what
// was written, with every size of write (smaller, equal to and larger
// than a chunk), and the zip is the one deflated as written; a writer that
// fails midway stops the writing with its error.
func TestDeflateAhead(t *testing.T) {
	var rows bytes.Buffer
	for i := range 40000 {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>ALVENARIA %d</t></is></c><c r="B%d"><v>%d.%02d</v></c></row>`, i, i, i%97, i, i*37, i%100)
	}
	entries := [][2]string{{"[Content_Types].xml", "<Types/>"}, {"xl/worksheets/sheet1.xml", rows.String()}, {"xl/styles.xml", "<styleSheet/>"}, {"empty", ""}}
	defer func(v bool) { xlsxDeflateAhead = v }(xlsxDeflateAhead)
	xlsxDeflateAhead = false
	var want bytes.Buffer
	if err := zipOf(&want, entries, []int{4096}); err != nil {
		t.Fatal(err)
	}
	xlsxDeflateAhead = true
	for _, sizes := range [][]int{{1, 100, 4096}, {deflateAheadChunk}, {deflateAheadChunk + 1, 7}, {3 * deflateAheadChunk}} {
		var got bytes.Buffer
		if err := zipOf(&got, entries, sizes); err != nil {
			t.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(got.Bytes()), int64(got.Len()))
		if err != nil {
			t.Fatalf("writes of %v: %v", sizes, err)
		}
		if len(zr.File) != len(entries) {
			t.Fatalf("writes of %v: %d entries, want %d", sizes, len(zr.File), len(entries))
		}
		for i, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(rc) // checks the CRC too
			if err != nil {
				t.Fatalf("writes of %v, %s: %v", sizes, f.Name, err)
			}
			if f.Name != entries[i][0] || string(b) != entries[i][1] {
				t.Errorf("writes of %v: entry %d is %s of %d bytes, want %s of %d", sizes, i, f.Name, len(b), entries[i][0], len(entries[i][1]))
			}
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("writes of %v: %d bytes, not the %d deflated as written", sizes, got.Len(), want.Len())
		}
	}
	for _, ahead := range []bool{false, true} {
		xlsxDeflateAhead = ahead
		cut := failingAfter{limit: want.Len() / 2}
		if err := zipOf(&cut, entries, []int{4096}); !errors.Is(err, errClientLeft) {
			t.Errorf("ahead %v, the writer failing midway: %v, want its error", ahead, err)
		}
	}
}
