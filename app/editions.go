package app

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/costdb/costdb/domain"
)

// EditionData is one bank edition's data, as an importer reads it from the
// published files: the edition, and its resources and compositions with the
// prices of the regimes in Edition.Regimes.
type EditionData struct {
	Edition      domain.Edition
	Resources    []*domain.BankResource
	Compositions []*domain.BankComposition
	// Replace replaces the edition instead of merging into it: its stored
	// records and regimes go, and the edition is exactly this data (the
	// national SINAPI workbook gives a state's whole month at once, so a
	// code it no longer lists must not keep last import's price).
	Replace bool
}

// ImportSummary counts what an import wrote, per edition.
type ImportSummary struct {
	Edition      domain.Edition
	Resources    int // resources read
	Compositions int // compositions read
}

// ImportEditions stores bank editions, all in one transaction: either every
// edition is imported or nothing changes. Importing into an edition that
// exists merges: the prices of the regimes imported now replace those of the
// same regimes, the other regime's prices stay, so importing the
// desonerado and the não desonerado files one after the other fills both,
// and importing the same data again changes nothing. Data marked Replace
// replaces its edition instead (see EditionData.Replace).
func (s *Service) ImportEditions(ctx context.Context, data []EditionData) ([]ImportSummary, error) {
	return s.ImportEditionsFunc(ctx, len(data), func(i int) (*EditionData, error) { return &data[i], nil })
}

// ImportEditionsFunc is ImportEditions for data too large to hold at once
// (the national SINAPI workbook: 27 editions of a month): it asks edition
// for the data of each of the n editions in turn, inside the one
// transaction, and keeps none of it once stored, so a caller that builds
// each edition when asked holds one edition's records at a time. edition
// may be called again for the same i if the store runs the transaction
// again. It may answer nil data for an i that has nothing to import (the
// per-state reader knows how many regime groups a state has only once its
// files are read): that i is skipped and has no summary. A ctx done (a
// signal, a client gone) stops it between editions and before the commit:
// nothing is written.
func (s *Service) ImportEditionsFunc(ctx context.Context, n int, edition func(i int) (*EditionData, error)) ([]ImportSummary, error) {
	var out []ImportSummary
	err := s.store.Update(ctx, func(tx Tx) error {
		out = out[:0]
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil { // stopped (a signal, a client gone): roll back
				return err
			}
			d, err := edition(i)
			if err != nil {
				return err
			}
			if d == nil {
				continue
			}
			sum, err := importEdition(tx, s.now(), d)
			if err != nil {
				return err
			}
			out = append(out, sum)
			event := domain.EventEditionImported
			if d.Replace {
				event = domain.EventEditionReplaced
			}
			e := sum.Edition
			if err := s.emit(tx, "", event, "/api/public/v2/banks/"+EditionID(e.Ref()),
				map[string]any{"bank": e.Bank, "state": e.State, "month": e.Month, "region": e.Region}); err != nil {
				return err
			}
		}
		return ctx.Err() // stopped while the last edition was written: nothing commits
	})
	return out, err
}

func importEdition(tx Tx, now time.Time, d *EditionData) (ImportSummary, error) {
	in := d.Edition
	in.Bank = domain.NormalizeBank(in.Bank)
	ref := in.Ref()
	if err := ref.Validate(""); err != nil {
		return ImportSummary{}, err
	}
	if len(in.Regimes) == 0 {
		return ImportSummary{}, domain.Errorf(domain.EINVALID, "edition %s: the import names no regime", editionName(ref))
	}
	key := in.Key()
	if d.Replace {
		return replaceEdition(tx, now, in, d)
	}
	ed, err := tx.Edition(key)
	if isNotFound(err) {
		ed = &domain.Edition{Bank: in.Bank, State: in.State, Month: in.Month, Region: in.Region}
	} else if err != nil {
		return ImportSummary{}, err
	}
	for _, r := range in.Regimes {
		ed.AddRegime(r)
	}
	if in.Source != "" {
		ed.Source = in.Source
	}
	ed.Files = domain.MergeFiles(ed.Files, in.Files)
	ed.ImportedAt = now
	for _, r := range inCodeOrder(d.Resources, resourceCode) {
		old, err := tx.BankResource(key, r.Code)
		switch {
		case isNotFound(err):
			ed.Resources++
			old = nil
		case err != nil:
			return ImportSummary{}, err
		}
		if err := tx.PutBankResource(key, domain.MergeBankResource(old, r, in.Regimes)); err != nil {
			return ImportSummary{}, err
		}
	}
	for _, c := range inCodeOrder(d.Compositions, compositionCode) {
		old, err := tx.BankComposition(key, c.Code)
		switch {
		case isNotFound(err):
			ed.Compositions++
			old = nil
		case err != nil:
			return ImportSummary{}, err
		}
		merged := domain.MergeBankComposition(old, c, in.Regimes)
		if len(merged.Items) > 0 && (old == nil || len(old.Items) == 0) {
			ed.Structures++
		}
		if err := tx.PutBankComposition(key, merged); err != nil {
			return ImportSummary{}, err
		}
	}
	if err := tx.PutEdition(ed); err != nil {
		return ImportSummary{}, err
	}
	return ImportSummary{Edition: *ed, Resources: len(d.Resources), Compositions: len(d.Compositions)}, nil
}

// replaceEdition stores d as the whole edition: the records the edition
// had are deleted first, in the same transaction.
func replaceEdition(tx Tx, now time.Time, in domain.Edition, d *EditionData) (ImportSummary, error) {
	key := in.Key()
	if err := tx.DeleteBankRecords(key); err != nil {
		return ImportSummary{}, err
	}
	ed := &domain.Edition{Bank: in.Bank, State: in.State, Month: in.Month, Region: in.Region, Source: in.Source, ImportedAt: now, Files: domain.MergeFiles(nil, in.Files)}
	for _, r := range in.Regimes {
		ed.AddRegime(r)
	}
	for _, r := range inCodeOrder(d.Resources, resourceCode) {
		if err := tx.PutBankResource(key, r); err != nil {
			return ImportSummary{}, err
		}
	}
	for _, c := range inCodeOrder(d.Compositions, compositionCode) {
		if err := tx.PutBankComposition(key, c); err != nil {
			return ImportSummary{}, err
		}
		if len(c.Items) > 0 {
			ed.Structures++
		}
	}
	ed.Resources, ed.Compositions = len(d.Resources), len(d.Compositions)
	if err := tx.PutEdition(ed); err != nil {
		return ImportSummary{}, err
	}
	return ImportSummary{Edition: *ed, Resources: len(d.Resources), Compositions: len(d.Compositions)}, nil
}

func resourceCode(r *domain.BankResource) string       { return r.Code }
func compositionCode(c *domain.BankComposition) string { return c.Code }

// inCodeOrder returns records in code order (byte order, the order the stores
// keep them in), sorting a copy when they are not: the files list them by
// description, and a store that inserts each record in the middle of what
// the transaction wrote so far (bbolt splits its pages only at the commit)
// takes time quadratic in the edition's size. The caller's slice is left
// as it is.
func inCodeOrder[T any](records []T, code func(T) string) []T {
	if slices.IsSortedFunc(records, func(a, b T) int { return strings.Compare(code(a), code(b)) }) {
		return records
	}
	// Sort the positions, ties broken by position: a code given twice
	// keeps its order, without a stable sort's extra passes.
	at := make([]int, len(records))
	for i := range at {
		at[i] = i
	}
	slices.SortFunc(at, func(a, b int) int {
		if c := strings.Compare(code(records[a]), code(records[b])); c != 0 {
			return c
		}
		return a - b
	})
	sorted := make([]T, len(records))
	for i, j := range at {
		sorted[i] = records[j]
	}
	return sorted
}
