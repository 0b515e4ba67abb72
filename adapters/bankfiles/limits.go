package bankfiles

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/costdb/costdb/domain"
)

// This file bounds what reading a zip costs: Caixa's monthly package (a
// zip of workbooks) and every XLSX workbook (a zip of XML parts). A file
// is checked before excelize opens it: the entries' count and declared
// sizes, then each part of a workbook read once through a counting reader
// (a zip header may lie about the size) and an XML guard (tag nesting, the
// length of one token, the strings of the shared strings table, no DTD), so
// that excelize only ever opens a workbook whose parts are known to be
// within the caps. Figures and reasons: docs/importing.md ("Limits").

// Limits are the caps on reading a zip or a workbook. A zero field takes
// its value in DefaultLimits.
type Limits struct {
	// Entries caps the entries of one zip.
	Entries int
	// EntryBytes caps one entry's uncompressed size.
	EntryBytes int64
	// TotalBytes caps the uncompressed size of all the entries of one zip.
	TotalBytes int64
	// Ratio caps an entry's uncompressed size over its compressed size,
	// for entries of more than ratioFloor bytes.
	Ratio int64
	// MemoryBytes caps the parts of a workbook that excelize holds in
	// memory: every part but the worksheets and the shared strings table
	// larger than xmlMemoryPart, which it reads from temporary files.
	MemoryBytes int64
	// SharedStrings caps the strings of a workbook's shared strings table
	// (excelize keeps an entry per string in memory).
	SharedStrings int64
	// XMLDepth caps the nesting of XML elements in a part.
	XMLDepth int
	// XMLToken caps one XML token: a cell's text, a tag with its
	// attributes.
	XMLToken int64
	// FormulaSheetBytes caps a worksheet read whole for its formulas (the
	// composition codes of the national workbook, which excelize's row
	// stream does not carry).
	FormulaSheetBytes int64
	// CSVLine caps one line of a CSV file (encoding/csv holds a record
	// whole).
	CSVLine int64
}

// DefaultLimits are the caps of an import: many times what the largest
// real files take (docs/importing.md), far below what a machine holds.
var DefaultLimits = Limits{
	Entries:           10_000,
	EntryBytes:        1 << 30,
	TotalBytes:        2 << 30,
	Ratio:             100,
	MemoryBytes:       64 << 20,
	SharedStrings:     500_000,
	XMLDepth:          256,
	XMLToken:          1 << 20,
	FormulaSheetBytes: 128 << 20,
	CSVLine:           1 << 20,
}

// ratioFloor is the size under which an entry's compression ratio is not
// checked: small parts of repeated text compress well and cost nothing.
const ratioFloor = 1 << 20

// xmlMemoryPart is excelize's UnzipXMLSizeLimit as costdb sets it: a
// worksheet or shared strings table larger than this is read from a
// temporary file, not from memory.
const xmlMemoryPart = 1 << 20

// withDefaults fills the fields of l that are not positive from
// DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	return Limits{
		Entries:           orDefault(l.Entries, d.Entries),
		EntryBytes:        orDefault(l.EntryBytes, d.EntryBytes),
		TotalBytes:        orDefault(l.TotalBytes, d.TotalBytes),
		Ratio:             orDefault(l.Ratio, d.Ratio),
		MemoryBytes:       orDefault(l.MemoryBytes, d.MemoryBytes),
		SharedStrings:     orDefault(l.SharedStrings, d.SharedStrings),
		XMLDepth:          orDefault(l.XMLDepth, d.XMLDepth),
		XMLToken:          orDefault(l.XMLToken, d.XMLToken),
		FormulaSheetBytes: orDefault(l.FormulaSheetBytes, d.FormulaSheetBytes),
		CSVLine:           orDefault(l.CSVLine, d.CSVLine),
	}
}

// orDefault is v when it is positive, else def.
func orDefault[T int | int64](v, def T) T {
	if v > 0 {
		return v
	}
	return def
}

// The caps, as LimitError.Cap names them.
const (
	CapEntries       = "entries per zip"
	CapEntryBytes    = "uncompressed size of a zip entry"
	CapTotalBytes    = "uncompressed size of a zip"
	CapRatio         = "compression ratio of a zip entry"
	CapMemoryBytes   = "workbook parts held in memory"
	CapSharedStrings = "shared strings of a workbook"
	CapXMLDepth      = "XML nesting depth"
	CapXMLToken      = "length of an XML token"
	CapXMLDTD        = "XML document type declarations"
	CapFormulaSheet  = "worksheet read whole for its formulas"
	CapCSVLine       = "length of a CSV line"
)

// LimitError is the error of a file that goes over a cap. Its message
// names the file, the entry or part (when one is at fault) and the cap.
type LimitError struct {
	File  string // the file as given
	Entry string // the zip entry or workbook part, or ""
	Cap   string // one of the Cap… names
	Limit int64  // the cap's value
	Unit  string // "bytes", "entries"… of Limit
}

func (e *LimitError) Error() string {
	where := e.File
	if e.Entry != "" {
		where += ": " + e.Entry
	}
	limit := fmt.Sprintf("%d %s", e.Limit, e.Unit)
	if e.Unit == "bytes" {
		limit = fmt.Sprintf("%d MiB", e.Limit>>20)
		if e.Limit < 1<<20 {
			limit = fmt.Sprintf("%d KiB", e.Limit>>10)
		}
	}
	if e.Cap == CapXMLDTD {
		return fmt.Sprintf("bankfiles: %s: refused: the part declares a DTD, over the cap on %s (none: a workbook has none, and entities could expand without bound)", where, e.Cap)
	}
	return fmt.Sprintf("bankfiles: %s: refused: over the cap on the %s (%s)", where, e.Cap, limit)
}

// ErrorCode makes a LimitError a bad request (domain.ErrorCode).
func (e *LimitError) ErrorCode() string { return domain.EBADREQUEST }

// checkZipEntries checks a zip's entries by their headers: count, declared
// sizes and ratios. It does not read them.
func checkZipEntries(name string, zr *zip.Reader, l Limits) error {
	if len(zr.File) > l.Entries {
		return &LimitError{File: name, Cap: CapEntries, Limit: int64(l.Entries), Unit: "entries"}
	}
	var total uint64
	for _, f := range zr.File {
		if err := checkEntrySize(name, f, f.UncompressedSize64, l); err != nil {
			return err
		}
		total += f.UncompressedSize64
		if total > uint64(l.TotalBytes) {
			return &LimitError{File: name, Cap: CapTotalBytes, Limit: l.TotalBytes, Unit: "bytes"}
		}
	}
	return nil
}

// checkEntrySize checks n uncompressed bytes of entry f against the entry
// and ratio caps.
func checkEntrySize(name string, f *zip.File, n uint64, l Limits) error {
	if n > uint64(l.EntryBytes) {
		return &LimitError{File: name, Entry: zipName(f), Cap: CapEntryBytes, Limit: l.EntryBytes, Unit: "bytes"}
	}
	if n > ratioFloor && n > uint64(l.Ratio)*f.CompressedSize64 { // a compressed size too large only weakens this check; the size caps hold
		return &LimitError{File: name, Entry: zipName(f), Cap: CapRatio, Limit: l.Ratio, Unit: "to 1"}
	}
	return nil
}

// entryReader reads a zip entry and counts the bytes it gives, failing
// with a LimitError as soon as they pass the entry cap, the ratio cap or
// what remains of the zip's total: the header's sizes are not trusted.
type entryReader struct {
	r     io.Reader
	name  string
	f     *zip.File
	l     Limits
	n     int64
	total *int64 // the zip's bytes read so far, all entries
	ctx   context.Context
}

func (e *entryReader) Read(p []byte) (int, error) {
	if err := e.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := e.r.Read(p)
	e.n += int64(n)
	*e.total += int64(n)
	if lerr := checkEntrySize(e.name, e.f, uint64(e.n), e.l); lerr != nil {
		return n, lerr
	}
	if *e.total > e.l.TotalBytes {
		return n, &LimitError{File: e.name, Cap: CapTotalBytes, Limit: e.l.TotalBytes, Unit: "bytes"}
	}
	return n, err
}

// openEntry opens entry f of the zip name for reading within the caps.
func openEntry(ctx context.Context, name string, f *zip.File, l Limits, total *int64) (io.ReadCloser, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{&entryReader{r: rc, name: name, f: f, l: l, total: total, ctx: ctx}, rc}, nil
}

// checkWorkbook checks an XLSX workbook before excelize opens it: its
// entries by their headers, then every part read once through the caps,
// XML parts through the XML guard. It returns the parts' sizes.
func checkWorkbook(ctx context.Context, name string, r io.ReaderAt, size int64, l Limits) (map[string]int64, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a readable XLSX workbook: %v", err)
	}
	if err := checkZipEntries(name, zr, l); err != nil {
		return nil, err
	}
	var total, memory int64
	sizes := make(map[string]int64, len(zr.File))
	buf := make([]byte, 64<<10)
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		part := strings.ToLower(strings.TrimPrefix(strings.ReplaceAll(f.Name, "\\", "/"), "/"))
		rc, err := openEntry(ctx, name, f, l, &total)
		if err != nil {
			return nil, fmt.Errorf("not a readable XLSX workbook: %s: %v", zipName(f), err)
		}
		var w io.Writer = io.Discard
		if ext := path.Ext(part); ext == ".xml" || ext == ".rels" || ext == ".vml" {
			w = &xmlGuard{file: name, part: zipName(f), l: l, sst: part == "xl/sharedstrings.xml"}
		}
		n, err := io.CopyBuffer(w, rc, buf)
		rc.Close()
		if err != nil {
			var le *LimitError
			if errors.As(err, &le) || ctx.Err() != nil {
				return nil, err
			}
			return nil, fmt.Errorf("not a readable XLSX workbook: %s: %v", zipName(f), err)
		}
		sizes[part] = n
		inTemp := n > xmlMemoryPart && (part == "xl/sharedstrings.xml" || strings.HasPrefix(part, "xl/worksheets/sheet"))
		if !inTemp {
			if memory += n; memory > l.MemoryBytes {
				return nil, &LimitError{File: name, Entry: zipName(f), Cap: CapMemoryBytes, Limit: l.MemoryBytes, Unit: "bytes"}
			}
		}
	}
	return sizes, nil
}

// xmlGuard reads an XML part as bytes and refuses, with a LimitError, a
// DTD, elements nested deeper than the cap, a token (text between tags, or
// one tag) longer than the cap, and, in the shared strings table, more
// strings than the cap. It is a scanner of the markup, not a parser:
// excelize parses the part afterwards; the guard only bounds what that
// parse may cost. encoding/xml expands no entity but the five predefined
// and numeric ones, and a workbook part has no DTD: one is refused.
type xmlGuard struct {
	file, part string
	l          Limits
	sst        bool

	inTag    bool  // between '<' and its '>'
	quote    byte  // the quote of an attribute value being read, or 0
	run      int64 // bytes of the current token
	depth    int
	head     [8]byte // the tag's first bytes after '<' ("/row", "!DOCTYPE", "si")
	headLen  int
	headDone bool // the tag's name has ended
	last     byte // the byte before the current one, in a tag
	strings  int64
}

func (g *xmlGuard) fail(c string, limit int64, unit string) error {
	return &LimitError{File: g.file, Entry: g.part, Cap: c, Limit: limit, Unit: unit}
}

func (g *xmlGuard) Write(p []byte) (int, error) {
	for i, c := range p {
		if g.run++; g.run > g.l.XMLToken {
			return i, g.fail(CapXMLToken, g.l.XMLToken, "bytes")
		}
		if !g.inTag {
			if c == '<' {
				g.inTag, g.run, g.headLen, g.headDone, g.last = true, 0, 0, false, 0
			}
			continue
		}
		if g.quote != 0 {
			if c == g.quote {
				g.quote = 0
			}
			continue
		}
		if !g.headDone {
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || (c == '/' && g.headLen > 0):
				g.headDone = true
			case g.headLen < len(g.head):
				g.head[g.headLen] = c
				g.headLen++
				if g.headLen == len(g.head) {
					g.headDone = true
					if string(g.head[:]) == "!DOCTYPE" {
						return i, g.fail(CapXMLDTD, 0, "")
					}
				}
			}
		}
		switch c {
		case '"', '\'':
			if g.headLen > 0 && g.head[0] != '!' {
				g.quote = c
			}
		case '>':
			g.closeTag()
			if g.depth > g.l.XMLDepth {
				return i, g.fail(CapXMLDepth, int64(g.l.XMLDepth), "levels")
			}
			if g.strings > g.l.SharedStrings {
				return i, g.fail(CapSharedStrings, g.l.SharedStrings, "strings")
			}
		}
		g.last = c
	}
	return len(p), nil
}

// closeTag ends the tag being read at its '>'.
func (g *xmlGuard) closeTag() {
	g.inTag, g.run = false, 0
	if g.headLen == 0 {
		return
	}
	switch g.head[0] {
	case '/':
		g.depth--
	case '?', '!':
	default:
		if g.last != '/' {
			g.depth++
		}
		if g.sst && g.headLen == 2 && g.head[0] == 's' && g.head[1] == 'i' {
			g.strings++
		}
	}
}

// lineGuard refuses, with a LimitError, a line longer than max bytes.
type lineGuard struct {
	r    io.Reader
	name string
	max  int64
	run  int64 // bytes since the last line end
}

func (g *lineGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			g.run = 0
		} else if g.run++; g.run > g.max {
			return n, &LimitError{File: g.name, Cap: CapCSVLine, Limit: g.max, Unit: "bytes"}
		}
	}
	return n, err
}
