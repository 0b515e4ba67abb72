package domain

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"time"
)

// BudgetVersion is a frozen version of a budget: the budget as it was
// (tree, banks, regime, BDI) and every price its reports read, stored as
// Content, the canonical encoding of a VersionContent, with Hash, the
// SHA-256 of Content in hexadecimal. A version is immutable: its reports
// are computed from Content alone, so they never change whatever happens
// later to the banks or the own base.
type BudgetVersion struct {
	CompanyID string
	BudgetID  string
	Number    int // 1, 2, … per budget
	FrozenAt  time.Time
	Hash      string
	Content   []byte
}

// VersionFormat is the version of the canonical encoding of VersionContent.
const VersionFormat = 1

// VersionContent is what a frozen version holds. Sources, when the
// editions it read recorded their files, are those files by edition (left
// out of the encoding when none, so versions frozen before keep their hash).
type VersionContent struct {
	Format  int
	Budget  *Budget
	Prices  *PriceSnapshot
	Sources []EditionSources `json:",omitempty"`
}

// EditionSources are the official files of one edition a version read
// (Edition.Files at the time it was frozen), by the edition's key.
type EditionSources struct {
	Edition string // the edition's key (EditionKey)
	Files   []SourceFile
}

// FileSource is a PriceSource that also knows the files each edition was
// read from; Freeze records them.
type FileSource interface {
	EditionFiles(editionKey string) ([]SourceFile, error)
}

// PriceSnapshot is every record a budget's reports read, as it was: a
// PriceSource that answers from it alone (ENOTFOUND for anything else).
// Keys: own resources by code; own compositions by code + "\x00" + state;
// bank records by edition key + "\x00" + code.
type PriceSnapshot struct {
	OwnResources     map[string]*Resource
	OwnCompositions  map[string]*Composition
	BankResources    map[string]*BankResource
	BankCompositions map[string]*BankComposition
}

// NewPriceSnapshot returns an empty snapshot.
func NewPriceSnapshot() *PriceSnapshot {
	return &PriceSnapshot{OwnResources: map[string]*Resource{}, OwnCompositions: map[string]*Composition{},
		BankResources: map[string]*BankResource{}, BankCompositions: map[string]*BankComposition{}}
}

func snapKey(a, b string) string { return a + "\x00" + b }

// EditionKeys are the keys of the editions the snapshot holds records of,
// sorted.
func (s *PriceSnapshot) EditionKeys() []string {
	seen := map[string]bool{}
	for k := range s.BankResources {
		seen[k[:strings.IndexByte(k, 0)]] = true
	}
	for k := range s.BankCompositions {
		seen[k[:strings.IndexByte(k, 0)]] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// OwnResource implements PriceSource.
func (s *PriceSnapshot) OwnResource(code string) (*Resource, error) {
	if r, ok := s.OwnResources[code]; ok {
		return r, nil
	}
	return nil, Errorf(ENOTFOUND, "resource %s not found", code)
}

// OwnComposition implements PriceSource.
func (s *PriceSnapshot) OwnComposition(code, state string) (*Composition, error) {
	if c, ok := s.OwnCompositions[snapKey(code, state)]; ok {
		return c, nil
	}
	return nil, Errorf(ENOTFOUND, "composition %s not found in %s", code, state)
}

// BankResource implements PriceSource.
func (s *PriceSnapshot) BankResource(ref BankRef, code string) (*BankResource, error) {
	if r, ok := s.BankResources[snapKey(ref.EditionKey(), code)]; ok {
		return r, nil
	}
	return nil, Errorf(ENOTFOUND, "resource %s not found in %s", code, ref.Label())
}

// BankComposition implements PriceSource.
func (s *PriceSnapshot) BankComposition(ref BankRef, code string) (*BankComposition, error) {
	if c, ok := s.BankCompositions[snapKey(ref.EditionKey(), code)]; ok {
		return c, nil
	}
	return nil, Errorf(ENOTFOUND, "composition %s not found in %s", code, ref.Label())
}

// Recorder is a PriceSource that reads another and keeps what it found in
// a snapshot.
type Recorder struct {
	Src  PriceSource
	Snap *PriceSnapshot
}

// OwnResource implements PriceSource.
func (r *Recorder) OwnResource(code string) (*Resource, error) {
	v, err := r.Src.OwnResource(code)
	if err == nil {
		r.Snap.OwnResources[code] = v
	}
	return v, err
}

// OwnComposition implements PriceSource.
func (r *Recorder) OwnComposition(code, state string) (*Composition, error) {
	v, err := r.Src.OwnComposition(code, state)
	if err == nil {
		r.Snap.OwnCompositions[snapKey(code, state)] = v
	}
	return v, err
}

// BankResource implements PriceSource.
func (r *Recorder) BankResource(ref BankRef, code string) (*BankResource, error) {
	v, err := r.Src.BankResource(ref, code)
	if err == nil {
		r.Snap.BankResources[snapKey(ref.EditionKey(), code)] = v
	}
	return v, err
}

// BankComposition implements PriceSource.
func (r *Recorder) BankComposition(ref BankRef, code string) (*BankComposition, error) {
	v, err := r.Src.BankComposition(ref, code)
	if err == nil {
		r.Snap.BankCompositions[snapKey(ref.EditionKey(), code)] = v
	}
	return v, err
}

// Freeze computes the budget's reports (synthetic, analytic, ABC) from
// src, recording every record they read (and, when src is a FileSource,
// the files of each edition read), and returns the version's content
// in its canonical encoding with its hash. The canonical encoding is JSON
// (encoding/json of VersionContent): fields in their declared order, the
// keys of maps sorted, decimals as strings in their shortest exact form,
// times in RFC 3339, no insignificant whitespace.
func Freeze(b *Budget, src PriceSource) (content []byte, hash string, err error) {
	rec := &Recorder{Src: src, Snap: NewPriceSnapshot()}
	bp := NewBudgetPricer(rec)
	// The analytic report's pass reads what the synthetic one reads, and
	// what it opens.
	if _, err := bp.AnalyticStream(b, b.Walk); err != nil {
		return nil, "", err
	}
	if _, err := bp.ABC(b, ABCLimits{}); err != nil {
		return nil, "", err
	}
	vc := VersionContent{Format: VersionFormat, Budget: b, Prices: rec.Snap}
	if fs, ok := src.(FileSource); ok {
		for _, key := range rec.Snap.EditionKeys() {
			files, err := fs.EditionFiles(key)
			if err != nil {
				return nil, "", err
			}
			if len(files) > 0 {
				vc.Sources = append(vc.Sources, EditionSources{Edition: key, Files: files})
			}
		}
	}
	content, err = json.Marshal(vc)
	if err != nil {
		return nil, "", err
	}
	return content, ContentHash(content), nil
}

// ContentHash is the hex SHA-256 of content.
func ContentHash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// Open decodes a version's content, checking it against its hash, and
// returns its budget and a pricer over its snapshot.
func (v *BudgetVersion) Open() (*Budget, *BudgetPricer, error) {
	if ContentHash(v.Content) != v.Hash {
		return nil, nil, Errorf(EINTERNAL, "version %d of budget %s does not match its hash", v.Number, v.BudgetID)
	}
	var c VersionContent
	if err := json.Unmarshal(v.Content, &c); err != nil {
		return nil, nil, err
	}
	if c.Budget == nil || c.Prices == nil {
		return nil, nil, Errorf(EINTERNAL, "version %d of budget %s is empty", v.Number, v.BudgetID)
	}
	return c.Budget, NewBudgetPricer(c.Prices), nil
}
