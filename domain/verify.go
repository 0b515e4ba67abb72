package domain

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Checking a frozen version against reference data (docs/verify.md): the
// bank records the version holds against those of the editions as the
// reference data gives them now (the editions a server holds, or the
// official files read afresh), the files recorded at the freeze against
// the files found, and the version's figures recomputed from the reference
// data against the frozen ones. The own base is not reference data: its
// records are taken as the version holds them.

// HeldEditions is the reference data a version is checked against.
type HeldEditions interface {
	BankResource(ref BankRef, code string) (*BankResource, error)
	BankComposition(ref BankRef, code string) (*BankComposition, error)
	// EditionFiles are the files the edition was read from; found reports
	// whether the edition is held at all.
	EditionFiles(editionKey string) (files []SourceFile, found bool, err error)
}

// File verdicts.
const (
	FileOK         = "ok"           // same name, size and SHA-256
	FileMissing    = "missing"      // recorded, not found
	FileChanged    = "changed"      // found under its name with another size or SHA-256
	FileUnrecorded = "not recorded" // found, not recorded at the freeze (informative)
)

// FileCheck is a file of an edition: as recorded at the freeze and as
// found, and the verdict.
type FileCheck struct {
	Edition  string      `json:"edition"` // label: SINAPI MG 08/2026
	Name     string      `json:"name"`
	Verdict  string      `json:"verdict"`
	Recorded *SourceFile `json:"recorded,omitempty"`
	Found    *SourceFile `json:"found,omitempty"`
}

// VersionDifference is one figure that differs between the version and
// the reference data, and why.
type VersionDifference struct {
	Edition string `json:"edition,omitempty"` // label, for a record's field
	Line    string `json:"line,omitempty"`    // the budget line's number, for a line's figure
	Code    string `json:"code,omitempty"`
	Figure  string `json:"figure"` // "price (não desonerado)", "unit price with BDI", "total with BDI"…
	Frozen  string `json:"frozen"`
	Found   string `json:"found"`
	Why     string `json:"why"`
}

// VersionCheck is what checking a version found. OK when every recorded
// file is found unchanged, every bank record and every figure is the same,
// and every edition read has recorded files (Unverifiable lists those that
// have none: their records are compared, their files cannot be).
type VersionCheck struct {
	OK           bool                `json:"ok"`
	Hash         string              `json:"hash"`
	Files        []FileCheck         `json:"files"`
	Unverifiable []string            `json:"unverifiable_editions"`
	Records      int                 `json:"records_checked"`
	Differences  []VersionDifference `json:"differences"`
	Frozen       BudgetTotals        `json:"-"`
	Recomputed   BudgetTotals        `json:"-"`
}

// CheckVersion checks the version whose canonical content is content
// against held.
func CheckVersion(content []byte, held HeldEditions) (*VersionCheck, error) {
	var vc VersionContent
	if err := json.Unmarshal(content, &vc); err != nil {
		return nil, Errorf(EINVALID, "not a frozen version's content: %v", err)
	}
	if vc.Budget == nil || vc.Prices == nil {
		return nil, Errorf(EINVALID, "not a frozen version's content: no budget or prices")
	}
	out := &VersionCheck{Hash: ContentHash(content), Files: []FileCheck{}, Unverifiable: []string{}, Differences: []VersionDifference{}}
	recorded := map[string][]SourceFile{}
	for _, s := range vc.Sources {
		recorded[s.Edition] = s.Files
	}
	refs := map[string]BankRef{}
	for _, key := range vc.Prices.EditionKeys() {
		ref, ok := EditionRefOfKey(key)
		if !ok {
			return nil, Errorf(EINVALID, "the version names an edition key %q that is not one", key)
		}
		refs[key] = ref
		found, held, err := held.EditionFiles(key)
		if err != nil {
			return nil, err
		}
		if !held {
			out.Differences = append(out.Differences, VersionDifference{Edition: ref.Label(), Figure: "edition",
				Frozen: ref.Label(), Found: "-", Why: "the edition is not held: none of its files was read"})
		}
		if len(recorded[key]) == 0 {
			out.Unverifiable = append(out.Unverifiable, ref.Label())
		}
		out.Files = append(out.Files, checkFiles(ref.Label(), recorded[key], found)...)
	}
	// The bank records, one by one.
	if err := checkRecords(out, refs, vc.Prices.BankResources, held.BankResource, resourceDiffs); err != nil {
		return nil, err
	}
	if err := checkRecords(out, refs, vc.Prices.BankCompositions, held.BankComposition, compositionDiffs); err != nil {
		return nil, err
	}
	// The figures, recomputed.
	frozen, err := NewBudgetPricer(vc.Prices).Synthetic(vc.Budget)
	if err != nil {
		return nil, err
	}
	again, err := NewBudgetPricer(checkSource{own: vc.Prices, held: held}).Synthetic(vc.Budget)
	if err != nil {
		return nil, err
	}
	out.Frozen, out.Recomputed = frozen.BudgetTotals, again.BudgetTotals
	figure := func(line, code, name string, was, is decimal.Decimal, why string) {
		if !was.Equal(is) {
			out.Differences = append(out.Differences, VersionDifference{Line: line, Code: code, Figure: name,
				Frozen: was.String(), Found: is.String(), Why: why})
		}
	}
	const recomputed = "recomputed from the reference data"
	for i, r := range frozen.Rows {
		a := again.Rows[i]
		if !r.Kind.IsLine() {
			continue
		}
		why := recomputed
		if a.Missing && !r.Missing {
			why = "what the line names is not in the reference data"
		}
		figure(r.Number, r.Code, "unit price", r.UnitPrice, a.UnitPrice, why)
		figure(r.Number, r.Code, "unit price with BDI", r.UnitPriceWithBDI, a.UnitPriceWithBDI, why)
		figure(r.Number, r.Code, "total with BDI", r.TotalWithBDI, a.TotalWithBDI, why)
	}
	figure("", "", "budget total", frozen.Total, again.Total, recomputed)
	figure("", "", "budget BDI", frozen.BDIValue, again.BDIValue, recomputed)
	figure("", "", "budget total with BDI", frozen.TotalWithBDI, again.TotalWithBDI, recomputed)
	out.OK = len(out.Differences) == 0 && len(out.Unverifiable) == 0
	for _, f := range out.Files {
		if f.Verdict == FileMissing || f.Verdict == FileChanged {
			out.OK = false
		}
	}
	return out, nil
}

// checkRecords compares each bank record of one kind the version holds
// (snapshot keys: edition key, NUL, code) with the one held.
func checkRecords[T any](out *VersionCheck, refs map[string]BankRef, frozen map[string]*T,
	get func(BankRef, string) (*T, error), diff func(label string, was, is *T) []VersionDifference) error {
	for _, k := range sortedKeys(frozen) {
		key, code, _ := strings.Cut(k, "\x00")
		out.Records++
		got, err := get(refs[key], code)
		if err = notHeld(out, refs[key], code, err); err != nil {
			return err
		}
		if got != nil {
			out.Differences = append(out.Differences, diff(refs[key].Label(), frozen[k], got)...)
		}
	}
	return nil
}

// checkSource prices a version's budget from the reference data, its own
// base as the version holds it.
type checkSource struct {
	own  *PriceSnapshot
	held HeldEditions
}

func (s checkSource) OwnResource(code string) (*Resource, error) { return s.own.OwnResource(code) }
func (s checkSource) OwnComposition(code, state string) (*Composition, error) {
	return s.own.OwnComposition(code, state)
}
func (s checkSource) BankResource(ref BankRef, code string) (*BankResource, error) {
	return s.held.BankResource(ref, code)
}
func (s checkSource) BankComposition(ref BankRef, code string) (*BankComposition, error) {
	return s.held.BankComposition(ref, code)
}

// notHeld records a record the reference data lacks; other errors return.
func notHeld(out *VersionCheck, ref BankRef, code string, err error) error {
	if err == nil {
		return nil
	}
	if ErrorCode(err) != ENOTFOUND {
		return err
	}
	out.Differences = append(out.Differences, VersionDifference{Edition: ref.Label(), Code: code, Figure: "record",
		Frozen: code, Found: "-", Why: "the code is not in the edition as the reference data gives it"})
	return nil
}

// checkFiles compares the files recorded at the freeze with those found.
func checkFiles(label string, recorded, found []SourceFile) []FileCheck {
	byName := map[string]*SourceFile{}
	for i := range found {
		byName[found[i].Name] = &found[i]
	}
	var out []FileCheck
	seen := map[string]bool{}
	for i := range recorded {
		r := &recorded[i]
		seen[r.Name] = true
		fc := FileCheck{Edition: label, Name: r.Name, Recorded: r, Found: byName[r.Name]}
		switch f := byName[r.Name]; {
		case f == nil:
			fc.Verdict = FileMissing
		case f.Size != r.Size || f.SHA256 != r.SHA256:
			fc.Verdict = FileChanged
		default:
			fc.Verdict = FileOK
		}
		out = append(out, fc)
	}
	for i := range found {
		if !seen[found[i].Name] {
			out = append(out, FileCheck{Edition: label, Name: found[i].Name, Verdict: FileUnrecorded, Found: &found[i]})
		}
	}
	return out
}

func resourceDiffs(label string, was, is *BankResource) []VersionDifference {
	d := recordDiffs{label: label, code: was.Code}
	d.text("description", was.Description, is.Description)
	d.text("unit", was.Unit, is.Unit)
	for _, g := range []Regime{NaoDesonerado, Desonerado} {
		if was.Priced(g) || is.Priced(g) {
			d.price("price ("+regimeLabel(g)+")", was.Priced(g), was.Prices.Productive(g), is.Priced(g), is.Prices.Productive(g))
			if was.Type == TypeEquipment || is.Type == TypeEquipment { // elsewhere the idle price repeats the price
				d.price("idle price ("+regimeLabel(g)+")", was.Priced(g), was.Prices.Idle(g), is.Priced(g), is.Prices.Idle(g))
			}
		}
	}
	if was.Base.Valid || is.Base.Valid {
		d.price("price without charges", was.Base.Valid, was.Base.Decimal, is.Base.Valid, is.Base.Decimal)
	}
	return d.out
}

func compositionDiffs(label string, was, is *BankComposition) []VersionDifference {
	d := recordDiffs{label: label, code: was.Code}
	d.text("description", was.Description, is.Description)
	d.text("unit", was.Unit, is.Unit)
	for _, g := range []Regime{NaoDesonerado, Desonerado} {
		if was.Priced(g) || is.Priced(g) {
			d.price("cost ("+regimeLabel(g)+")", was.Priced(g), was.Cost.In(g), is.Priced(g), is.Cost.In(g))
		}
	}
	items := func(c *BankComposition) map[string]decimal.Decimal {
		m := map[string]decimal.Decimal{}
		for _, it := range c.Items {
			m[string(it.Kind)+" "+it.Code] = it.Coefficient
		}
		return m
	}
	wi, ii := items(was), items(is)
	for _, k := range sortedKeys(wi) {
		if c, ok := ii[k]; !ok {
			d.add("item "+k, wi[k].String(), "-", "the item is not in the composition's structure")
		} else if !c.Equal(wi[k]) {
			d.add("coefficient of "+k, wi[k].String(), c.String(), "the coefficient differs")
		}
	}
	for _, k := range sortedKeys(ii) {
		if _, ok := wi[k]; !ok {
			d.add("item "+k, "-", ii[k].String(), "the item was not in the composition's structure")
		}
	}
	return d.out
}

// recordDiffs collects the differences of one record.
type recordDiffs struct {
	label, code string
	out         []VersionDifference
}

func (d *recordDiffs) add(figure, was, is, why string) {
	d.out = append(d.out, VersionDifference{Edition: d.label, Code: d.code, Figure: figure, Frozen: was, Found: is, Why: why})
}

func (d *recordDiffs) text(figure, was, is string) {
	if was != is {
		d.add(figure, was, is, "the "+figure+" differs")
	}
}

func (d *recordDiffs) price(figure string, wasOK bool, was decimal.Decimal, isOK bool, is decimal.Decimal) {
	switch {
	case wasOK && !isOK:
		d.add(figure, was.String(), "-", "the price is not published")
	case !wasOK && isOK:
		d.add(figure, "-", is.String(), "the price was not published")
	case !was.Equal(is):
		d.add(figure, was.String(), is.String(), "the price differs")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// EditionRefOfKey is the reference an edition key (EditionKey) names.
func EditionRefOfKey(key string) (BankRef, bool) {
	parts := strings.Split(key, "/")
	if len(parts) != 4 || len(parts[2]) != 7 || parts[2][4] != '-' {
		return BankRef{}, false
	}
	ref := BankRef{Name: parts[0], State: parts[1], Month: parts[2][5:] + "/" + parts[2][:4], Region: parts[3]}
	if ref.EditionKey() != key {
		return BankRef{}, false
	}
	return ref, true
}

// String is a one-line summary of a check.
func (c *VersionCheck) String() string {
	if c.OK {
		return fmt.Sprintf("OK: %d records and every figure recomputed as frozen", c.Records)
	}
	return fmt.Sprintf("NOT OK: %d differences", len(c.Differences))
}
