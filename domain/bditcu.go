package domain

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// BDIParts are the components of a BDI rate as TCU's Acórdão 2622/2013
// defines them, each in percent of the direct cost (4 means 4%):
//
//	BDI = ((1 + AC + S + R + G) × (1 + DF) × (1 + L)) / (1 − I) − 1
//
// AC, S, R and G add up inside one bracket; DF and L compound; the taxes I
// gross the price up. I is split in two: Taxes (PIS, COFINS, ISS: the
// effective rates on the price) and CPRB (the payroll-tax substitute, only
// for a desonerado budget), because TCU's reference ranges were built
// without CPRB: a budget is checked with the rate computed without it and
// prices with the rate computed with it. S and G may be given apart or as
// one figure in either field: the reference ranges are for their sum.
type BDIParts struct {
	AC, S, R, G, DF, L decimal.Decimal
	Taxes, CPRB        decimal.Decimal
}

// bdiRatePlaces is how many decimal places the exact rate is carried with
// (as a fraction); the rate applied is rounded from it to 2 places of
// percent.
const bdiRatePlaces = 20

// Validate checks the parts: none negative, at most 4 decimal places, each
// below 100%, and taxes (with CPRB) below 100% (the formula divides by
// 1 − I). Fields are named from ptr ("/bdi_components/ac").
func (p BDIParts) Validate(ptr string) error {
	var v Validation
	for _, f := range p.fields() {
		switch d := *f.v; {
		case d.IsNegative():
			v.Add(ptr+"/"+f.name, "must not be negative")
		case d.GreaterThanOrEqual(hundred):
			v.Add(ptr+"/"+f.name, "must be less than 100 (percent)")
		case !d.Truncate(4).Equal(d):
			v.Add(ptr+"/"+f.name, "has more than 4 decimal places")
		}
	}
	if len(v.Fields) == 0 && p.Taxes.Add(p.CPRB).GreaterThanOrEqual(hundred) {
		v.Add(ptr+"/taxes", "taxes and cprb together must be less than 100 (percent): the price is grossed up by 1/(1 − I)")
	}
	return v.Err()
}

type bdiField struct {
	name     string
	v        *decimal.Decimal
	required bool
}

// fields are the parts by name: AC, DF, L and taxes are required of a
// request; S, R, G and CPRB default to 0 (S+G may be given as one figure in
// S).
func (p *BDIParts) fields() []bdiField {
	return []bdiField{{"ac", &p.AC, true}, {"s", &p.S, false}, {"r", &p.R, false}, {"g", &p.G, false},
		{"df", &p.DF, true}, {"l", &p.L, true}, {"taxes", &p.Taxes, true}, {"cprb", &p.CPRB, false}}
}

// BDIPartNames returns the names of the parts ("ac", "taxes"…), in the
// order of the struct.
func BDIPartNames() []string {
	fs := (&BDIParts{}).fields()
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// IsBDIPart reports whether name is the name of a part.
func IsBDIPart(name string) bool { return slices.Contains(BDIPartNames(), name) }

// BDIPartsOf builds the parts a request gives by name (given reports each
// one, ok false when left out): each required part left out is added to v,
// named from ptr ("/bdi_components/ac"), and the others default to 0.
func BDIPartsOf(ptr string, given func(name string) (d decimal.Decimal, ok bool), v *Validation) *BDIParts {
	out := &BDIParts{}
	for _, f := range out.fields() {
		d, ok := given(f.name)
		switch {
		case ok:
			*f.v = d
		case f.required:
			v.Add(ptr+"/"+f.name, "is required")
		}
	}
	return out
}

// Exact returns the BDI of the parts as a fraction (0.2222… for 22.22%),
// exact to bdiRatePlaces places (truncated there), with CPRB in I when
// withCPRB.
func (p BDIParts) Exact(withCPRB bool) decimal.Decimal {
	frac := func(d decimal.Decimal) decimal.Decimal { return d.Shift(-2) }
	a := one.Add(frac(p.AC)).Add(frac(p.S)).Add(frac(p.R)).Add(frac(p.G))
	c := a.Mul(one.Add(frac(p.DF))).Mul(one.Add(frac(p.L)))
	i := p.Taxes
	if withCPRB {
		i = i.Add(p.CPRB)
	}
	den := one.Sub(frac(i))
	// DivRound to two more places than kept, then truncate: the quotient
	// is carried exactly to bdiRatePlaces places.
	return c.DivRound(den, bdiRatePlaces+2).Truncate(bdiRatePlaces).Sub(one)
}

// Rate returns the BDI in percent rounded half up to 2 places (22.23), the
// rate printed and applied to prices (with CPRB in I).
func (p BDIParts) Rate() decimal.Decimal { return RoundHalfUp(p.Exact(true).Shift(2), 2) }

// RateWithoutCPRB returns the BDI in percent, 2 places, computed with I
// excluding CPRB: the rate TCU's ranges are compared with.
func (p BDIParts) RateWithoutCPRB() decimal.Decimal { return RoundHalfUp(p.Exact(false).Shift(2), 2) }

// Confidence says how well a reference value is sourced.
type Confidence string

// The confidence levels of a reference value.
const (
	ConfidenceConfirmed    Confidence = "confirmed"     // two or more independent public sources
	ConfidenceSingleSource Confidence = "single_source" // one public source
	ConfidenceUnconfirmed  Confidence = "unconfirmed"   // not yet checked against the acórdão
)

// BDIRange is a TCU reference range: 1st quartile, average (the mean of
// TCU's sample, "médio", not the median) and 3rd quartile, in percent, with
// the confidence of each figure.
type BDIRange struct {
	Q1, Average, Q3 decimal.Decimal
	Confidence      [3]Confidence // of Q1, Average, Q3
}

// Confirmed reports whether both bounds of the range are sourced (two
// sources or one): a check against an unconfirmed bound says so.
func (r BDIRange) Confirmed() bool {
	return r.Confidence[0] != ConfidenceUnconfirmed && r.Confidence[2] != ConfidenceUnconfirmed
}

// BDIWorkType is a type of work with its reference ranges: the BDI's and
// its components' (AC, S+G, R, DF, L; none for the taxes).
type BDIWorkType struct {
	ID         string
	Name       string
	BDI        BDIRange
	Components map[string]BDIRange // keys "ac", "sg", "r", "df", "l"
}

// BDIWorkTypeSupply is the id of the differentiated BDI's ranges, for lines
// that supply materials or equipment.
const BDIWorkTypeSupply = "supply"

// BDIReference is a published set of reference ranges.
type BDIReference struct {
	Source    string
	Note      string
	WorkTypes []BDIWorkType
}

// WorkType returns the work type with the id.
func (r *BDIReference) WorkType(id string) (*BDIWorkType, bool) {
	for i := range r.WorkTypes {
		if r.WorkTypes[i].ID == id {
			return &r.WorkTypes[i], true
		}
	}
	return nil, false
}

// WorkTypeIDs lists the ids of the budget work types (the supply ranges
// are not one).
func (r *BDIReference) WorkTypeIDs() []string {
	var out []string
	for _, w := range r.WorkTypes {
		if w.ID != BDIWorkTypeSupply {
			out = append(out, w.ID)
		}
	}
	return out
}

//go:embed tcu/acordao-2622-2013.json
var tcu2622JSON []byte

// TCU2622 returns the reference ranges of Acórdão 2622/2013, kept as data
// (tcu/acordao-2622-2013.json) with the confidence of every figure.
func TCU2622() *BDIReference { return tcu2622 }

var tcu2622 = mustBDIReference(tcu2622JSON)

func mustBDIReference(data []byte) *BDIReference {
	type rng struct {
		Q1, Average, Q3 string
		Confidence      [3]Confidence
	}
	var doc struct {
		Source    string
		Note      string
		WorkTypes []struct {
			ID, Name   string
			BDI        rng
			Components map[string]rng
		} `json:"work_types"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		panic("domain: bad BDI reference data: " + err.Error())
	}
	conv := func(r rng) BDIRange {
		return BDIRange{Q1: Dec(r.Q1), Average: Dec(r.Average), Q3: Dec(r.Q3), Confidence: r.Confidence}
	}
	ref := &BDIReference{Source: doc.Source, Note: doc.Note}
	for _, w := range doc.WorkTypes {
		wt := BDIWorkType{ID: w.ID, Name: w.Name, BDI: conv(w.BDI), Components: map[string]BDIRange{}}
		for k, c := range w.Components {
			wt.Components[k] = conv(c)
		}
		ref.WorkTypes = append(ref.WorkTypes, wt)
	}
	return ref
}

// BDIStatus places a value against its reference range.
type BDIStatus string

// The statuses of a checked value.
const (
	BDIBelow  BDIStatus = "below"  // under the 1st quartile: the budget must justify it
	BDIInside BDIStatus = "inside" // within [1st quartile, 3rd quartile], bounds included
	BDIAbove  BDIStatus = "above"  // over the 3rd quartile: the budget must justify it
)

// BDICheckRow is one checked figure: a component (or S+G) or the BDI.
type BDICheckRow struct {
	Name   string // "ac", "sg", "r", "df", "l", "bdi"
	Value  decimal.Decimal
	Range  BDIRange
	Status BDIStatus
	// Flagged is true when the value lies outside its range.
	Flagged bool
}

// BDICheck is a BDI checked against a work type's ranges.
type BDICheck struct {
	WorkType *BDIWorkType
	Parts    BDIParts
	// Rate is the BDI applied (with CPRB); RateWithoutCPRB the one checked.
	Rate, RateWithoutCPRB decimal.Decimal
	// Exact is Rate before rounding, as a percent with 18 places.
	Exact decimal.Decimal
	// Rows are the components AC, S+G, R, DF, L, then the BDI (without
	// CPRB).
	Rows []BDICheckRow
	// Flagged counts the rows outside their ranges.
	Flagged int
}

// CheckBDI checks parts against the work type's ranges: each component
// (S and G as one sum) against its own row and the BDI without CPRB
// against the BDI row, bounds inclusive, values compared as entered
// (components) or rounded to 2 places (the BDI).
func CheckBDI(wt *BDIWorkType, p BDIParts) BDICheck {
	c := BDICheck{WorkType: wt, Parts: p, Rate: p.Rate(), RateWithoutCPRB: p.RateWithoutCPRB(),
		Exact: p.Exact(true).Shift(2)}
	add := func(name string, v decimal.Decimal, r BDIRange) {
		row := BDICheckRow{Name: name, Value: v, Range: r, Status: BDIInside}
		switch {
		case v.LessThan(r.Q1):
			row.Status = BDIBelow
		case v.GreaterThan(r.Q3):
			row.Status = BDIAbove
		}
		row.Flagged = row.Status != BDIInside
		if row.Flagged {
			c.Flagged++
		}
		c.Rows = append(c.Rows, row)
	}
	comp := map[string]decimal.Decimal{"ac": p.AC, "sg": p.S.Add(p.G), "r": p.R, "df": p.DF, "l": p.L}
	names := make([]string, 0, len(wt.Components))
	for k := range wt.Components {
		names = append(names, k)
	}
	order := map[string]int{"ac": 0, "sg": 1, "r": 2, "df": 3, "l": 4}
	sort.Slice(names, func(i, j int) bool { return order[names[i]] < order[names[j]] })
	for _, k := range names {
		add(k, comp[k], wt.Components[k])
	}
	add("bdi", c.RateWithoutCPRB, wt.BDI)
	return c
}

// ValidWorkType reports whether id names a budget work type of the
// reference ("" is valid: none given).
func ValidWorkType(id string) bool {
	if id == "" {
		return true
	}
	_, ok := tcu2622.WorkType(id)
	return ok && id != BDIWorkTypeSupply
}

// WorkTypeList returns the budget work types as "a, b or c" for messages.
func WorkTypeList() string {
	ids := tcu2622.WorkTypeIDs()
	return strings.Join(ids[:len(ids)-1], ", ") + " or " + ids[len(ids)-1]
}
