package bankfiles

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/costdb/costdb/domain"
)

// This file reads Caixa's monthly "Relatório de Manutenções de Insumos e
// Composições" (SINAPI_Manutenções_AAAA_MM.xlsx, a companion of the national
// package): one worksheet, title lines (A3 "Mês de Referência:" with the
// month in B3), then the header Referência | Tipo | Código | Descrição |
// Manutenção and one row per change. The report is cumulative: the 12/2025
// edition holds every change since 2009; Referência (an Excel date, the
// first day of the month) is the month each change took effect. It is
// national: no state column.

// ChangeLog is a read change log: the month its title names and its lines.
type ChangeLog struct {
	Bank    string
	Month   string // MM/YYYY, from the title ("Mês de Referência")
	Changes []domain.BankChange
}

// Months lists the months of the log's lines, as they first appear.
func (c *ChangeLog) Months() []string {
	seen := map[string]bool{}
	var out []string
	for _, ch := range c.Changes {
		if !seen[ch.Month] {
			seen[ch.Month] = true
			out = append(out, ch.Month)
		}
	}
	return out
}

// ReadSinapiChangeLog reads a SINAPI manutenções workbook. Every bad row is
// reported at once (up to maxFieldErrors), and nothing is returned then.
func ReadSinapiChangeLog(ctx context.Context, path string, l Limits) (*ChangeLog, error) {
	l = l.withDefaults()
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	rows, err := openXLSX(ctx, path, f, st.Size(), l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer rows.close()
	return readChangeLog(ctx, path, rows)
}

const maxChangeErrors = 20

func readChangeLog(ctx context.Context, name string, rows *sheetRows) (*ChangeLog, error) {
	log := &ChangeLog{Bank: "SINAPI"}
	var cols [5]int // Referência, Tipo, Código, Descrição, Manutenção
	header := false
	var errs []string
	fail := func(line int, format string, args ...any) {
		if len(errs) < maxChangeErrors {
			errs = append(errs, fmt.Sprintf("row %d: %s", line, fmt.Sprintf(format, args...)))
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, cells, err := rows.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if !header {
			if len(cells) >= 2 && NormalizeName(cells[0]) == "MES DE REFERENCIA:" || len(cells) >= 2 && NormalizeName(cells[0]) == "MES DE REFERENCIA" {
				m, ok := changeMonth(cells[1])
				if !ok {
					return nil, fmt.Errorf("%s: row %d: Mês de Referência %q is not a month (MM/YYYY)", name, line, cells[1])
				}
				log.Month = m
				continue
			}
			if c, ok := changeHeader(cells); ok {
				cols, header = c, true
			}
			continue
		}
		cell := func(i int) string {
			if cols[i] < len(cells) {
				return strings.TrimSpace(cells[cols[i]])
			}
			return ""
		}
		if cell(0) == "" && cell(2) == "" && cell(4) == "" {
			continue // blank row
		}
		ch := domain.BankChange{Bank: log.Bank, Description: strings.Join(strings.Fields(cell(3)), " "), Text: cell(4)}
		month, ok := changeMonth(cell(0))
		if !ok {
			fail(line, "Referência %q is not a month", cell(0))
		}
		ch.Month = month
		switch NormalizeName(cell(1)) {
		case "INSUMO":
		case "COMPOSICAO":
			ch.Composition = true
		default:
			fail(line, "Tipo %q is neither INSUMO nor COMPOSIÇÃO", cell(1))
		}
		code, ok := wbCode(xlsxNumber(cell(2)))
		if !ok {
			fail(line, "Código %q is not a code", cell(2))
		}
		ch.Code = code
		kind, ok := ParseChangeKind(cell(4))
		if !ok {
			fail(line, "Manutenção %q is not a change costdb knows", cell(4))
		}
		ch.Kind = kind
		log.Changes = append(log.Changes, ch)
	}
	if !header {
		return nil, fmt.Errorf("%s: no header row Referência | Tipo | Código | Descrição | Manutenção: not a SINAPI manutenções workbook", name)
	}
	if log.Month == "" {
		return nil, fmt.Errorf("%s: no Mês de Referência in the title lines", name)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %d bad rows, nothing read:\n  %s", name, len(errs), strings.Join(errs, "\n  "))
	}
	return log, nil
}

// changeHeader finds the columns of the header row.
func changeHeader(cells []string) ([5]int, bool) {
	want := [5]string{"REFERENCIA", "TIPO", "CODIGO", "DESCRICAO", "MANUTENCAO"}
	var cols [5]int
	found := 0
	for i := range cols {
		cols[i] = -1
	}
	for j, c := range cells {
		n := NormalizeName(c)
		for i, w := range want {
			if n == w && cols[i] < 0 {
				cols[i] = j
				found++
			}
		}
	}
	return cols, found == len(want)
}

// changeMonth reads a month as MM/YYYY: an Excel date serial (the cell
// Referência), "MM/YYYY" or "DD/MM/YYYY" as text.
func changeMonth(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 && !strings.Contains(s, "/") {
		t, err := excelize.ExcelDateToTime(f, false)
		if err != nil {
			return "", false
		}
		return t.Format("01/2006"), true
	}
	parts := strings.Split(s, "/")
	if len(parts) == 3 {
		parts = parts[1:]
	}
	if len(parts) != 2 {
		return "", false
	}
	m := parts[0] + "/" + parts[1]
	if len(parts[0]) == 1 {
		m = "0" + m
	}
	if !domain.ValidMonth(m) {
		return "", false
	}
	return m, true
}

// ParseChangeKind maps Caixa's words for a change (column Manutenção; case,
// accents and spacing ignored) to its kind; ok is false for words it does not
// know.
func ParseChangeKind(text string) (domain.ChangeKind, bool) {
	t := NormalizeName(text)
	switch {
	case strings.HasPrefix(t, "DESATIVACAO"), strings.HasSuffix(t, " DESATIVADA"), strings.HasSuffix(t, " DESATIVADO"):
		return domain.ChangeDeactivated, true
	case strings.HasSuffix(t, " SUSPENSA"), strings.HasSuffix(t, " SUSPENSO"):
		return domain.ChangeSuspended, true
	case strings.HasPrefix(t, "CRIACAO DE "):
		return domain.ChangeCreated, true
	case t == "ALTERACAO DE DESCRICAO":
		return domain.ChangeDescription, true
	case t == "ALTERACAO DE UNIDADE":
		return domain.ChangeUnit, true
	case strings.HasPrefix(t, "ALTERACAO DE ") && strings.Contains(t, "COEFICIENTE"):
		return domain.ChangeCoefficients, true
	case strings.HasPrefix(t, "INICIO DIVULGACAO "), strings.HasPrefix(t, "INICIO DA DIVULGACAO "):
		return domain.ChangePublished, true
	}
	return "", false
}
