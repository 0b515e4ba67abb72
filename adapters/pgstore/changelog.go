package pgstore

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// Reference banks' change logs (app.ChangeLogTx) live in the table
// bank_changes (migration 0005), the month stored as YYYY-MM.

var _ app.ChangeLogTx = (*tx)(nil)

func changeMonthKey(month string) string { return month[3:] + "-" + month[:2] }

func (t *tx) PutChanges(bank, month string, changes []domain.BankChange) error {
	if err := t.canWrite(); err != nil {
		return err
	}
	if bank == "" || !domain.ValidMonth(month) {
		return fmt.Errorf("pgstore: a change log needs a bank and a month MM/YYYY, not %q %q", bank, month)
	}
	ym := changeMonthKey(month)
	if err := t.exec(`DELETE FROM bank_changes WHERE bank = $1 AND month = $2`, bank, ym); err != nil {
		return err
	}
	rows := make([][]any, len(changes))
	for i, ch := range changes {
		if ch.Bank != bank || ch.Month != month {
			return fmt.Errorf("pgstore: change %d is of %s %s, not of %s %s", i, ch.Bank, ch.Month, bank, month)
		}
		rows[i] = []any{bank, ym, i, ch.State, ch.Composition, ch.Code, ch.Description, string(ch.Kind), ch.Text}
	}
	if len(rows) == 0 {
		return nil
	}
	_, err := t.ptx.CopyFrom(t.ctx, pgx.Identifier{"bank_changes"},
		[]string{"bank", "month", "seq", "state", "composition", "code", "description", "kind", "text"}, pgx.CopyFromRows(rows))
	if err != nil {
		return t.fail(err)
	}
	return nil
}

func (t *tx) Changes(bank, month string) ([]domain.BankChange, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	out := []domain.BankChange{}
	if !domain.ValidMonth(month) {
		return out, nil
	}
	rows, err := t.ptx.Query(t.ctx, `SELECT state, composition, code, description, kind, text
		FROM bank_changes WHERE bank = $1 AND month = $2 ORDER BY seq`, bank, changeMonthKey(month))
	if err != nil {
		return nil, t.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		ch := domain.BankChange{Bank: bank, Month: month}
		var kind string
		if err := rows.Scan(&ch.State, &ch.Composition, &ch.Code, &ch.Description, &kind, &ch.Text); err != nil {
			return nil, t.fail(err)
		}
		ch.Kind = domain.ChangeKind(kind)
		out = append(out, ch)
	}
	if err := rows.Err(); err != nil {
		return nil, t.fail(err)
	}
	return out, nil
}

func (t *tx) ChangeMonths(bank string) ([]string, error) {
	if err := t.readable(); err != nil {
		return nil, err
	}
	rows, err := t.ptx.Query(t.ctx, `SELECT DISTINCT month FROM bank_changes WHERE bank = $1 ORDER BY month`, bank)
	if err != nil {
		return nil, t.fail(err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var ym string
		if err := rows.Scan(&ym); err != nil {
			return nil, t.fail(err)
		}
		out = append(out, ym[5:]+"/"+ym[:4])
	}
	if err := rows.Err(); err != nil {
		return nil, t.fail(err)
	}
	return out, nil
}
