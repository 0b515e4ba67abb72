// Package bankfiles reads the files in which reference banks are
// redistributed and turns them into domain values ready to import: an
// edition, its resources (with their four prices) and its compositions (with
// their published cost and, where known, their structure).
//
// Two families of layouts are read:
//
//   - The publishers' official files, through an Importer: Caixa's per-state
//     SINAPI reports (insumos, sintético, analítico; XLSX or CSV) and DNIT's
//     SICRO "Relatório Sintético" reports (XLSX or CSV). Each file's kind is
//     told by its header row; a new layout is one more Format value.
//   - The normalised layout of the open-data repositories the bundled sample
//     comes from (ReadSinapi, ReadSicro).
//
// Every number is parsed exactly with github.com/shopspring/decimal, never
// through float64. Errors are *domain.Error values with code EBADREQUEST
// naming the file and line at fault.
//
// The package reads only what it is given (io.Reader values); package sample
// embeds a small real subset of each layout.
package bankfiles

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Edition is one bank edition's data ready to import.
type Edition struct {
	Edition      domain.Edition
	Resources    []*domain.BankResource
	Compositions []*domain.BankComposition
}

// badFile returns the error of a file that cannot be read as its layout says.
func badFile(file string, line int, format string, args ...any) error {
	where := file
	if line > 0 {
		where = fmt.Sprintf("%s line %d", file, line)
	}
	return domain.Errorf(domain.EBADREQUEST, "bankfiles: %s: %s", where, fmt.Sprintf(format, args...))
}

// csvRecord is one CSV record with the line it starts on.
type csvRecord struct {
	line   int
	fields []string
}

// readCSV reads every record of a comma-separated file. Records may have
// different lengths (title rows of the SICRO reports); CRLF line ends are
// accepted.
func readCSV(file string, r io.Reader) ([]csvRecord, error) {
	if r == nil {
		return nil, badFile(file, 0, "file is missing")
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	var out []csvRecord
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, badFile(file, 0, "%v", err)
		}
		line, _ := cr.FieldPos(0)
		if len(out) == 0 && len(rec) > 0 {
			rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
		}
		out = append(out, csvRecord{line: line, fields: rec})
	}
}

// blank reports whether every field of a record is empty.
func blank(fields []string) bool {
	for _, f := range fields {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// parseDecimal parses a number exactly. Negative numbers are refused: no
// price, cost or coefficient of a bank is negative.
func parseDecimal(file string, line int, field, s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Decimal{}, badFile(file, line, "%s %q is not a number", field, s)
	}
	if d.IsNegative() {
		return decimal.Decimal{}, badFile(file, line, "%s %q is negative", field, s)
	}
	return d, nil
}

// sameText reports whether two cells say the same thing, ignoring the
// spaces around them.
func sameText(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }
