package bankfiles

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/costdb/costdb/domain"
)

// This file is the import port of the official bank files: an Importer
// reads the files of one edition (one bank, state and month) through the
// Formats of a Bank into a Builder, which merges them into the editions
// app.Service.ImportEditions stores. A new kind of file (the 2025 national
// SINAPI workbook, ORSE, SEINFRA, a company's price list) is one new Format;
// docs/importing.md shows how to write one.

// Format is one kind of file a bank publishes: SINAPI's insumo prices,
// SICRO's equipment report… It recognises its header row and reads the data
// rows below it.
type Format interface {
	// Name names the kind of file in summaries and messages.
	Name() string
	// Detect reports whether h is this kind of file's header row. It is
	// asked of each row from the top of a file until one Format says yes;
	// the rows above are the file's title rows.
	Detect(h Header) bool
	// Read reads every data row of f (f.Next until it reports the end) into
	// b. Its errors name the file and the line (f.Errorf).
	Read(f *File, b *Builder) error
}

// Bank is a reference bank as its official files make it: its name in the
// editions, the publisher cited in their Source, and the kinds of file it
// publishes.
type Bank struct {
	// Name is the bank of the editions imported (SINAPI, SICRO3).
	Name string
	// Publisher opens the editions' Source ("SINAPI/CAIXA").
	Publisher string
	// Formats are the kinds of file of the bank, tried in this order on
	// each header row: put a format whose header is a superset of
	// another's first.
	Formats []Format
}

// FileSummary says what was read from one file.
type FileSummary struct {
	Name     string          // the file, as given
	Format   string          // the kind of file (Format.Name)
	Regimes  []domain.Regime // the regimes the file gave prices of
	Rows     int             // data rows read
	Skipped  int             // data rows left out on purpose (not priced)
	Repeated int             // data rows that repeat an earlier row's code and data
}

// RegimeCount counts what an import carries in one regime.
type RegimeCount struct {
	Regime       domain.Regime
	Resources    int // resources priced in the regime
	Compositions int // compositions with a cost in the regime
}

// Importer reads the official files of one bank edition. Add each file, then
// take the Editions to import, all at once, with app.Service.ImportEditions.
// Files may come in any order and in any mix of regimes. An Importer that
// returned an error must be discarded: it holds part of the failed file.
type Importer struct {
	// Regime, when not nil, is the regime of every file, for formats whose
	// files do not state theirs (SINAPI, whose regime is otherwise told by
	// the file name). Formats that read the regime from the file ignore it.
	Regime *domain.Regime
	// Progress, when not nil, is called now and then while a file is read,
	// with the bytes read so far and the total (of the worksheet, for an
	// XLSX file), and once at the end of the file with done == total.
	Progress func(file string, done, total int64)
	// Limits are the caps on reading an XLSX file (a zip); zero fields
	// take DefaultLimits'.
	Limits Limits

	bank    Bank
	state   string
	month   string
	files   []FileSummary
	sources []domain.SourceFile // the record of each file read (Edition.Files)
	b       Builder
}

// NewImporter returns an Importer of the edition of bank for a state (UF)
// and a month (MM/YYYY).
func NewImporter(bank Bank, state, month string) (*Importer, error) {
	meta := domain.Edition{Bank: bank.Name, State: state, Month: month}
	if err := checkMeta(meta); err != nil {
		return nil, err
	}
	im := &Importer{bank: bank, state: state, month: month}
	im.b.init()
	return im, nil
}

// AddFile reads the file at path (CSV or XLSX, told apart by its content).
func (im *Importer) AddFile(ctx context.Context, path string) (FileSummary, error) {
	fh, err := os.Open(path)
	if err != nil {
		return FileSummary{Name: path}, badFile(path, 0, "%v", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return FileSummary{Name: path}, badFile(path, 0, "%v", err)
	}
	return im.Add(ctx, path, fh, st.Size())
}

// Add reads one file of size bytes from r; name names it in messages and
// in the edition's Source.
func (im *Importer) Add(ctx context.Context, name string, r io.ReaderAt, size int64) (FileSummary, error) {
	sum := FileSummary{Name: name}
	f, format, err := newFile(ctx, name, r, size, im.bank.Formats, im.Limits.withDefaults())
	if err == errNoHeader {
		return sum, im.unknownFile(ctx, name, r, size)
	}
	if err != nil {
		return sum, err
	}
	defer f.src.close()
	f.Regime, f.State, f.Month = im.Regime, im.state, im.month
	if im.Progress != nil {
		f.progress = func(done, total int64) { im.Progress(name, done, total) }
	}
	sum.Format = format.Name()
	rec, err := sourceFile(name, r, size, f.Title)
	if err != nil {
		return sum, err
	}
	im.b.file = &sum
	err = format.Read(f, &im.b)
	im.b.file = nil
	sum.Rows, sum.Skipped = f.rows, f.skipped
	if err != nil {
		return sum, err
	}
	if im.Progress != nil {
		_, total := f.src.progress()
		im.Progress(name, total, total)
	}
	im.files = append(im.files, sum)
	im.sources = append(im.sources, rec)
	return sum, nil
}

// Files returns the summaries of the files read, in order.
func (im *Importer) Files() []FileSummary { return append([]FileSummary(nil), im.files...) }

// Counts returns what the files carry in each regime, não desonerado first.
func (im *Importer) Counts() []RegimeCount { return im.b.counts() }

// Edition returns the edition the files are imported into, without regimes
// or counts, its Source citing the publisher and the files read, its Files
// recording each (name, size, SHA-256, title lines).
func (im *Importer) Edition() domain.Edition {
	names := make([]string, len(im.files))
	for i, f := range im.files {
		names[i] = filepath.Base(f.Name)
	}
	return domain.Edition{
		Bank: im.bank.Name, State: im.state, Month: im.month,
		Source: fmt.Sprintf("%s, %s %s: %s", im.bank.Publisher, im.state, im.month, strings.Join(names, ", ")),
		Files:  append([]domain.SourceFile(nil), im.sources...),
	}
}

// Editions returns the data to import: one Edition per set of regimes the
// records are priced in (both, só não desonerado, só desonerado), since
// importing merges by regime and a record must not wipe the prices of a
// regime its files did not give. All have the same edition key. It fails
// when no file or no record was read, or a composition has a structure but
// no cost.
func (im *Importer) Editions() ([]Edition, error) {
	if len(im.files) == 0 {
		return nil, badFile("import", 0, "no file was read")
	}
	return im.b.editions(im.Edition())
}

// unknownFile returns the error of a file whose header no format of the
// bank recognises, saying which other bank's file it looks like, if any.
func (im *Importer) unknownFile(ctx context.Context, name string, r io.ReaderAt, size int64) error {
	names := make([]string, len(im.bank.Formats))
	for i, fm := range im.bank.Formats {
		names[i] = fm.Name()
	}
	msg := fmt.Sprintf("no header row of a %s file (%s) in its first %d rows",
		im.bank.Name, strings.Join(names, ", "), maxTitleRows)
	for _, other := range []Bank{OfficialSinapi(), OfficialSicro()} {
		if other.Name == im.bank.Name {
			continue
		}
		if f, format, err := newFile(ctx, name, r, size, other.Formats, im.Limits.withDefaults()); err == nil {
			f.src.close()
			msg += fmt.Sprintf(": it looks like a %s file, of bank %s", format.Name(), other.Name)
			break
		}
	}
	return badFile(name, 0, "%s", msg)
}
