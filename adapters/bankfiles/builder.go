package bankfiles

import (
	"fmt"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// ResourceRow is what one row of a file says of a resource: its fields and
// its price in the regimes the row is given for. For equipment Productive and
// Idle are the hourly costs in operation and standing; for anything else
// both are the unit price.
type ResourceRow struct {
	Code        string
	Description string
	Unit        string
	Type        int // domain.TypeMaterial, TypeLabor, TypeEquipment…
	Productive  decimal.Decimal
	Idle        decimal.Decimal
}

// CompositionRow is what one row of a file says of a composition: its fields
// and its published unit cost in the regimes the row is given for.
type CompositionRow struct {
	Code        string
	Description string
	Unit        string
	Class       string // SINAPI's SIGLA DA CLASSE, if known
	Cost        decimal.Decimal
}

// Builder gathers the records the files of one edition give, merging the
// regimes: a record given for one regime by one file and for the other by
// another is one record priced in both. A row that repeats a code with the
// same data is counted (FileSummary.Repeated) and otherwise ignored: DNIT's
// equipment report lists a tractor unit under each combination that uses it.
// A code that two rows describe differently (another description, unit, type,
// or price in the same regime) is refused, naming both places.
// Formats add to it; the Importer owns it.
type Builder struct {
	resources    map[string]*resourceEntry
	resOrder     []*resourceEntry
	compositions map[string]*compositionEntry
	compOrder    []*compositionEntry
	file         *FileSummary // the file being read
}

// pos is a place in a file, for messages.
type pos struct {
	file string
	line int
}

func (p pos) String() string {
	if p.line > 0 {
		return fmt.Sprintf("%s line %d", p.file, p.line)
	}
	return p.file
}

type resourceEntry struct {
	r       domain.BankResource
	at      pos
	has     [2]bool
	priceAt [2]pos
}

type compositionEntry struct {
	c       domain.BankComposition
	at      pos
	has     [2]bool
	costAt  [2]pos
	itemsAt pos // the file that gave c.Items
	others  []structure
}

// structure is a composition's items as a second file gives them.
type structure struct {
	at    pos
	items []domain.StructureItem
}

func (b *Builder) init() {
	b.resources = map[string]*resourceEntry{}
	b.compositions = map[string]*compositionEntry{}
}

// note records in the current file's summary the regimes it gives and
// whether a row repeats an earlier one.
func (b *Builder) note(regimes []domain.Regime, repeated bool) {
	if b.file == nil {
		return
	}
	if repeated {
		b.file.Repeated++
	}
	for _, r := range regimes {
		found := false
		for _, x := range b.file.Regimes {
			found = found || x == r
		}
		if !found {
			b.file.Regimes = append(b.file.Regimes, r)
		}
	}
}

// AddResource records a resource priced in each of regimes (one or both).
func (b *Builder) AddResource(f *File, line int, regimes []domain.Regime, r ResourceRow) error {
	here := pos{f.Name, line}
	if r.Code == "" {
		return f.Errorf(line, "the code is empty")
	}
	e := b.resources[r.Code]
	if e == nil {
		e = &resourceEntry{at: here, r: domain.BankResource{
			Code: strings.Clone(r.Code), Description: strings.Clone(r.Description),
			Unit: strings.Clone(r.Unit), Type: r.Type,
		}}
		b.resources[e.r.Code] = e
		b.resOrder = append(b.resOrder, e)
	} else if err := sameFields(f, line, "resource "+r.Code, e.at,
		[3]string{e.r.Description, e.r.Unit, domain.ResourceTypes[e.r.Type]},
		[3]string{r.Description, r.Unit, domain.ResourceTypes[r.Type]}); err != nil {
		return err
	}
	repeated := false
	for _, g := range regimes {
		p := &e.r.Prices
		prod, idle := &p.PND, &p.PNDI
		if g == domain.Desonerado {
			prod, idle = &p.PD, &p.PDI
		}
		if e.has[g] {
			if !prod.Equal(r.Productive) || !idle.Equal(r.Idle) {
				return f.Errorf(line, "resource %s costs %s (idle %s) %s here and %s (idle %s) in %s", r.Code,
					r.Productive, r.Idle, g, prod, idle, e.priceAt[g])
			}
			repeated = repeated || e.priceAt[g].file == f.Name
			continue
		}
		*prod, *idle = r.Productive, r.Idle
		e.has[g], e.priceAt[g] = true, here
	}
	b.note(regimes, repeated)
	return nil
}

// AddComposition records a composition with its cost in each of regimes.
// With no regime it records only the composition's description, for a file
// that gives its structure but not its cost.
func (b *Builder) AddComposition(f *File, line int, regimes []domain.Regime, c CompositionRow) error {
	e, err := b.composition(f, line, c.Code)
	if err != nil {
		return err
	}
	if e.c.Description == "" && e.c.Unit == "" {
		e.c.Description, e.c.Unit = strings.Clone(c.Description), strings.Clone(c.Unit)
	} else if err := sameFields(f, line, "composition "+c.Code, e.at,
		[3]string{e.c.Description, e.c.Unit, ""}, [3]string{c.Description, c.Unit, ""}); err != nil {
		return err
	}
	if e.c.Class == "" {
		e.c.Class = strings.Clone(c.Class)
	}
	repeated := false
	for _, g := range regimes {
		cost := &e.c.Cost.PND
		if g == domain.Desonerado {
			cost = &e.c.Cost.PD
		}
		if e.has[g] {
			if !cost.Equal(c.Cost) {
				return f.Errorf(line, "composition %s costs %s %s here and %s in %s", c.Code, c.Cost, g, cost, e.costAt[g])
			}
			repeated = repeated || e.costAt[g].file == f.Name
			continue
		}
		*cost = c.Cost
		e.has[g], e.costAt[g] = true, pos{f.Name, line}
	}
	b.note(regimes, repeated)
	return nil
}

// AddItem appends an item to the structure f gives of a composition. The
// structure of a composition is the same in both regimes: when a second
// file (the other regime's analytic report) gives it again, it must be the
// same.
func (b *Builder) AddItem(f *File, line int, composition string, it domain.StructureItem) error {
	e, err := b.composition(f, line, composition)
	if err != nil {
		return err
	}
	if it.Code == "" {
		return f.Errorf(line, "composition %s: the item code is empty", composition)
	}
	it.Code = strings.Clone(it.Code)
	switch {
	case e.itemsAt.file == "" || e.itemsAt.file == f.Name:
		if e.itemsAt.file == "" {
			e.itemsAt = pos{f.Name, line}
		}
		e.c.Items = append(e.c.Items, it)
	default:
		n := len(e.others)
		if n == 0 || e.others[n-1].at.file != f.Name {
			e.others = append(e.others, structure{at: pos{f.Name, line}})
			n++
		}
		e.others[n-1].items = append(e.others[n-1].items, it)
	}
	return nil
}

// composition returns the entry of a code, made when new.
func (b *Builder) composition(f *File, line int, code string) (*compositionEntry, error) {
	if code == "" {
		return nil, f.Errorf(line, "the composition code is empty")
	}
	e := b.compositions[code]
	if e == nil {
		e = &compositionEntry{at: pos{f.Name, line}, c: domain.BankComposition{Code: strings.Clone(code)}}
		b.compositions[e.c.Code] = e
		b.compOrder = append(b.compOrder, e)
	}
	return e, nil
}

// sameFields refuses a record whose description, unit or type (a, b) differ
// between two places.
func sameFields(f *File, line int, what string, first pos, a, b [3]string) error {
	for i, name := range [...]string{"description", "unit", "type"} {
		if a[i] != "" && b[i] != "" && a[i] != b[i] {
			return f.Errorf(line, "%s has another %s here (%q) than in %s (%q)", what, name, b[i], first, a[i])
		}
	}
	return nil
}

// counts counts the records priced in each regime.
func (b *Builder) counts() []RegimeCount {
	out := []RegimeCount{{Regime: domain.NaoDesonerado}, {Regime: domain.Desonerado}}
	for _, e := range b.resOrder {
		for g := range e.has {
			if e.has[g] {
				out[g].Resources++
			}
		}
	}
	for _, e := range b.compOrder {
		for g := range e.has {
			if e.has[g] {
				out[g].Compositions++
			}
		}
	}
	return out
}

// editions splits the records by the regimes they are priced in.
func (b *Builder) editions(meta domain.Edition) ([]Edition, error) {
	groups := [3]*Edition{} // index: has mask - 1
	group := func(has [2]bool) *Edition {
		i := 0
		if has[domain.NaoDesonerado] {
			i |= 1
		}
		if has[domain.Desonerado] {
			i |= 2
		}
		if groups[i-1] == nil {
			groups[i-1] = &Edition{Edition: meta}
			for g, ok := range has {
				if ok {
					groups[i-1].Edition.AddRegime(domain.Regime(g))
				}
			}
		}
		return groups[i-1]
	}
	for _, e := range b.resOrder {
		r := e.r
		if !e.has[domain.NaoDesonerado] && !e.has[domain.Desonerado] {
			continue // cannot happen: a resource is added with a price
		}
		ed := group(e.has)
		ed.Resources = append(ed.Resources, &r)
	}
	for _, e := range b.compOrder {
		if !e.has[domain.NaoDesonerado] && !e.has[domain.Desonerado] {
			return nil, badFile(e.at.file, e.at.line,
				"composition %s has no cost in any regime: give its synthetic (sintético) file too", e.c.Code)
		}
		for _, o := range e.others {
			if !sameItems(e.c.Items, o.items) {
				return nil, badFile(o.at.file, o.at.line, "composition %s has another structure here than in %s",
					e.c.Code, e.itemsAt)
			}
		}
		c := e.c
		ed := group(e.has)
		ed.Compositions = append(ed.Compositions, &c)
	}
	if len(b.resOrder) == 0 && len(b.compOrder) == 0 {
		return nil, badFile("import", 0, "the files hold no resource and no composition")
	}
	var out []Edition
	for _, i := range []int{3, 1, 2} {
		if ed := groups[i-1]; ed != nil {
			ed.Edition.Resources, ed.Edition.Compositions = len(ed.Resources), len(ed.Compositions)
			for _, c := range ed.Compositions {
				if len(c.Items) > 0 {
					ed.Edition.Structures++
				}
			}
			out = append(out, *ed)
		}
	}
	return out, nil
}

func sameItems(a, b []domain.StructureItem) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Code != b[i].Code || !a[i].Coefficient.Equal(b[i].Coefficient) {
			return false
		}
	}
	return true
}
