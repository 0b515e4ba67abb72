package bankfiles

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// ReadSGS reads a monthly series as Banco Central's SGS exports it (the
// "CSV" of its site and of its API, bcdata.sgs.N/dados?formato=csv): a
// header "data;valor", then one row per month, the date as dd/mm/yyyy (the
// first day of the month) or mm/yyyy, the value with a decimal comma
// ("0,42", "1.234,56"), fields quoted or not. Every bad row is named (up to
// 20) and nothing is returned. The caller bounds r (the API's body cap).
func ReadSGS(r io.Reader) ([]domain.IndexPoint, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.Comma = ';'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("not a readable SGS CSV (data;valor): %v", err)
	}
	if len(recs) == 0 || len(recs[0]) < 2 || !strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(recs[0][0], "\ufeff")), "data") ||
		!strings.EqualFold(strings.TrimSpace(recs[0][1]), "valor") {
		return nil, errors.New(`not an SGS export: the first row must be the header "data;valor"`)
	}
	var out []domain.IndexPoint
	var bad []string
	for i, rec := range recs[1:] {
		line := i + 2
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(rec) < 2 {
			bad = append(bad, fmt.Sprintf("row %d: two fields expected, data;valor", line))
			continue
		}
		month, ok := sgsMonth(strings.TrimSpace(rec[0]))
		if !ok {
			bad = append(bad, fmt.Sprintf("row %d: %q is not a date dd/mm/yyyy or mm/yyyy", line, rec[0]))
		}
		v, err := decimal.NewFromString(strings.Replace(strings.ReplaceAll(strings.TrimSpace(rec[1]), ".", ""), ",", ".", 1))
		if err != nil {
			bad = append(bad, fmt.Sprintf("row %d: %q is not a number with a decimal comma", line, rec[1]))
		}
		if ok && err == nil {
			out = append(out, domain.IndexPoint{Month: month, Value: v})
		}
	}
	if len(bad) > 0 {
		more := ""
		if len(bad) > 20 {
			more = fmt.Sprintf(" (and %d more)", len(bad)-20)
			bad = bad[:20]
		}
		return nil, fmt.Errorf("the SGS file has bad rows%s: %s", more, strings.Join(bad, "; "))
	}
	if len(out) == 0 {
		return nil, errors.New("the SGS file has no row after its header")
	}
	return out, nil
}

// sgsMonth reads an SGS date as a month MM/YYYY.
func sgsMonth(s string) (string, bool) {
	for _, layout := range []string{"02/01/2006", "01/2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("01/2006"), true
		}
	}
	return "", false
}
