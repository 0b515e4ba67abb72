package domain

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Edition is one published edition of a reference bank: a bank, a state, a
// reference month and an optional region. Its resources and compositions are
// stored beside it, keyed by code.
type Edition struct {
	Bank         string // upper case: SINAPI, SICRO3…
	State        string // UF
	Month        string // MM/YYYY
	Region       string
	Regimes      []Regime // regimes whose prices were imported
	Resources    int      // number of resources
	Compositions int      // number of compositions
	Structures   int      // number of compositions whose structure is known
	Source       string   // where the data came from
	ImportedAt   time.Time
	// Files are the official files the edition was read from (name,
	// size, SHA-256, title lines), by name (MergeFiles); none when its
	// importer read no file of the publisher's (the demo's normalised
	// subsets, an edition imported before files were recorded).
	Files []SourceFile
}

// Key returns the edition's key.
func (e *Edition) Key() string { return EditionKey(e.Bank, e.State, e.Month, e.Region) }

// Ref returns a reference to the edition, as a composition names it.
func (e *Edition) Ref() BankRef {
	return BankRef{Name: e.Bank, State: e.State, Month: e.Month, Region: e.Region}
}

// HasRegime reports whether prices of regime r were imported.
func (e *Edition) HasRegime(r Regime) bool {
	for _, x := range e.Regimes {
		if x == r {
			return true
		}
	}
	return false
}

// AddRegime records that prices of regime r were imported.
func (e *Edition) AddRegime(r Regime) {
	if !e.HasRegime(r) {
		e.Regimes = append(e.Regimes, r)
		if len(e.Regimes) == 2 && e.Regimes[0] > e.Regimes[1] {
			e.Regimes[0], e.Regimes[1] = e.Regimes[1], e.Regimes[0]
		}
	}
}

// EditionKey builds the key of an edition. Months are turned into YYYY-MM so
// that keys of one bank and state sort chronologically.
func EditionKey(bank, state, month, region string) string {
	bank, region = NormalizeBank(bank), strings.ToUpper(region)
	var b strings.Builder
	b.Grow(len(bank) + len(state) + len(month) + len(region) + 3)
	b.WriteString(bank)
	b.WriteByte('/')
	b.WriteString(state)
	b.WriteByte('/')
	if ValidMonth(month) {
		b.WriteString(month[3:])
		b.WriteByte('-')
		b.WriteString(month[:2])
	} else {
		b.WriteString(month)
	}
	b.WriteByte('/')
	b.WriteString(region)
	return b.String()
}

// BankResource is a resource as a reference bank publishes it in one
// edition: one price line for the edition's state.
type BankResource struct {
	Code        string
	Description string
	Unit        string
	Type        int
	Prices      PriceLine
	// Regimes are the regimes whose prices the bank published for this
	// record (import files of one regime may lack a code the other has);
	// nil means every regime of its edition. A regime not here has no price:
	// its figures read 0 and must be flagged, never shown as a price.
	Regimes []Regime
	// Base is the price without social charges (SINAPI's "sem encargos"
	// sheets, for labour), when the bank published one: what own labour
	// charges apply to (LabourPrice).
	Base decimal.NullDecimal
}

// Priced reports whether the record has prices of regime g.
func (r *BankResource) Priced(g Regime) bool { return r.Regimes == nil || hasRegime(r.Regimes, g) }

// BankComposition is a composition as a reference bank publishes it: its
// published unit cost per regime and, where the analytic report was
// imported, its structure.
type BankComposition struct {
	Code        string
	Description string
	Unit        string
	Class       string
	Cost        UnitPrice
	Items       []StructureItem
	// Regimes are the regimes whose cost the bank published for this
	// composition (SICRO's synthetic composition report gives the não
	// desonerado one only); nil means every regime of its edition.
	Regimes []Regime
}

// Priced reports whether the composition has a published cost of regime g.
func (c *BankComposition) Priced(g Regime) bool { return c.Regimes == nil || hasRegime(c.Regimes, g) }

func hasRegime(rs []Regime, g Regime) bool {
	for _, r := range rs {
		if r == g {
			return true
		}
	}
	return false
}

// importedRegimes are the regimes an import gives a record: those of the
// import that the record itself has (own nil: all of them), in order.
func importedRegimes(own, imported []Regime) []Regime {
	out := make([]Regime, 0, 2) // never nil: nil means every regime
	for _, g := range []Regime{NaoDesonerado, Desonerado} {
		if hasRegime(imported, g) && (own == nil || hasRegime(own, g)) {
			out = append(out, g)
		}
	}
	return out
}

// mergeRegimes adds the regimes imported now to those a stored record had
// (nil, for a record stored before records kept their regimes: every
// regime of the edition, which stays so).
func mergeRegimes(old, now []Regime) []Regime {
	if old == nil {
		return nil
	}
	out := make([]Regime, 0, 2)
	for _, g := range []Regime{NaoDesonerado, Desonerado} {
		if hasRegime(old, g) || hasRegime(now, g) {
			out = append(out, g)
		}
	}
	return out
}

// StructureItem is one line of a published composition structure.
type StructureItem struct {
	Kind        ItemKind
	Code        string
	Coefficient decimal.Decimal
}

// UnitPrice is an amount in both regimes.
type UnitPrice struct {
	PND decimal.Decimal // não desonerado
	PD  decimal.Decimal // desonerado
}

// In returns the amount of regime r.
func (u UnitPrice) In(r Regime) decimal.Decimal {
	if r == Desonerado {
		return u.PD
	}
	return u.PND
}

// Add returns u + v, regime by regime.
func (u UnitPrice) Add(v UnitPrice) UnitPrice {
	return UnitPrice{PND: u.PND.Add(v.PND), PD: u.PD.Add(v.PD)}
}

// MergeBankResource returns the resource to store when r is imported with
// the prices of the regimes given over old (nil when new): the regimes
// imported now take r's prices, the others keep old's.
func MergeBankResource(old, r *BankResource, regimes []Regime) *BankResource {
	out := *r
	regimes = importedRegimes(r.Regimes, regimes)
	out.Regimes = regimes
	if old == nil {
		return &out
	}
	out.Regimes = mergeRegimes(old.Regimes, regimes)
	if !out.Base.Valid {
		out.Base = old.Base
	}
	out.Prices = old.Prices
	for _, g := range regimes {
		if g == Desonerado {
			out.Prices.PD, out.Prices.PDI = r.Prices.PD, r.Prices.PDI
		} else {
			out.Prices.PND, out.Prices.PNDI = r.Prices.PND, r.Prices.PNDI
		}
	}
	return &out
}

// MergeBankComposition returns the composition to store when c is imported
// with the costs of the regimes given over old (nil when new). A structure
// (items) replaces the old one only when c carries one.
func MergeBankComposition(old, c *BankComposition, regimes []Regime) *BankComposition {
	out := *c
	out.Items = append([]StructureItem(nil), c.Items...)
	regimes = importedRegimes(c.Regimes, regimes)
	out.Regimes = regimes
	if old == nil {
		return &out
	}
	out.Regimes = mergeRegimes(old.Regimes, regimes)
	out.Cost = old.Cost
	for _, g := range regimes {
		if g == Desonerado {
			out.Cost.PD = c.Cost.PD
		} else {
			out.Cost.PND = c.Cost.PND
		}
	}
	if len(out.Items) == 0 {
		out.Items = append([]StructureItem(nil), old.Items...)
	}
	if out.Class == "" {
		out.Class = old.Class
	}
	return &out
}
