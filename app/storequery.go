package app

import (
	"cmp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
)

// Query is what a list method of Tx (Groups, Resources, Compositions,
// Budgets) is asked for: the records of one company that satisfy every
// condition of Where, in the order Sort gives, from the Offset-th on, at most
// Limit of them. The method returns that page and Total, the number of the
// company's records that satisfy Where (the page ignored).
//
// The rules below are the contract every store implements (and that
// adapters/storetest checks); app builds a Query from the HTTP list query
// (see ListQuery) and never filters, sorts or pages a list itself.
//
// Order. Records are ordered by each Order of Sort in turn; records equal on
// every key are ordered by ID, ascending, even when a key is Desc (IDs made
// by NewID sort in creation order). No Sort means ID order. The keys:
//   - a text field (description, client, unit, state, composition type):
//     by Fold(text), compared as bytes (strings.Compare; SQL: COLLATE "C" on
//     the folded text), then, among texts equal once folded, by the text
//     itself as bytes. Desc reverses both, not the ID order.
//   - code: by CodeKey(Fold(code)) as bytes (natural order: runs of digits by
//     their value, so R-9 < R-10), then by the code itself as bytes.
//   - resource type: by the integer. status, is_sicro: false first.
//   - created_at, updated_at: by the instant (nanoseconds).
//
// Paging. Offset < 0 counts as 0; an Offset at or past Total gives an empty
// page (and still the Total). Limit ≤ 0 means no limit.
//
// Conditions. Each Cond has an Op and the Fields it reads:
//   - Contains: Fold(Text) is a substring of Fold(f) for at least one f of
//     Fields (code, description, client). Text is never empty; app sends
//     one word per Cond (a filter value of several words becomes one Cond
//     per word, all of which must hold), but a store answers any Text.
//   - EqualFold: the single field (unit, state, composition type,
//     description) equals Text ignoring case (strings.EqualFold: Unicode
//     simple case folding; accents count, "Á" ≠ "a").
//   - Equal: the single field equals exactly: group (the group's ID, Text),
//     code (Text, byte for byte), resource type (Int), status and is_sicro
//     (Bool).
//   - AtOrAfter / Before: the single time field (created_at, updated_at) is
//     ≥ Time / strictly < Time.
//   - PricedIn: a resource has a price line (domain.Resource.Locals) for the
//     state Text (upper case). Fields is empty.
//   - Uses: a composition has an item, or a budget a line (a node at any
//     depth of its tree), of the own base (domain.BankMyBase) of Item.Kind
//     with Item.Code, exactly; for Kind composition the using record's own
//     State must also equal Item.State (an own composition is known by code
//     and state); for Kind resource Item.State is ignored. Fields is empty.
//     A record that uses the item several times counts once.
//   - Tagged: the record (a resource, a composition or a budget) has the
//     tag Text among its tags, byte for byte. Fields is empty.
//
// Fields each list accepts (a store returns an error for any other; app
// never sends one):
//   - Groups: description, created_at.
//   - Resources: code, description, type (int), unit, group, status,
//     is_sicro, created_at; PricedIn, Tagged.
//   - Compositions: code, description, type (text: the composition class),
//     unit, state, group, is_sicro, created_at; Uses, Tagged.
//   - Budgets: code, description, client, state, created_at, updated_at;
//     Uses, Tagged.
type Query struct {
	Where  []Cond
	Sort   []Order
	Offset int
	Limit  int
}

// Field names a field of a listed record (see Query).
type Field string

// The fields a Query may name.
const (
	FieldCode        Field = "code"
	FieldDescription Field = "description"
	FieldClient      Field = "client"
	FieldType        Field = "type"
	FieldUnit        Field = "unit"
	FieldState       Field = "state"
	FieldGroup       Field = "group"
	FieldStatus      Field = "status"
	FieldIsSicro     Field = "is_sicro"
	FieldCreatedAt   Field = "created_at"
	FieldUpdatedAt   Field = "updated_at"
)

// Op is the test a Cond makes (see Query).
type Op int

// The tests of a Cond.
const (
	Contains Op = iota + 1
	EqualFold
	Equal
	AtOrAfter
	Before
	PricedIn
	Uses
	Tagged
)

// Cond is one condition of a Query: Op applied to Fields with the operand in
// Text, Int, Bool, Time or Item, as Op needs.
type Cond struct {
	Op     Op
	Fields []Field
	Text   string
	Int    int
	Bool   bool
	Time   time.Time
	Item   UsedItem
}

// UsedItem names an own resource or composition for a Uses condition.
type UsedItem struct {
	Kind  domain.ItemKind
	Code  string
	State string
}

// Order is one sort key of a Query, descending when Desc.
type Order struct {
	Field Field
	Desc  bool
}

// Fold returns s in lower case without accents ("Água Fria" → "agua fria"),
// the form text conditions and orders compare. Combining marks (text sent
// decomposed) are dropped too. A store that keeps folded text must keep
// exactly this function's result.
func Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf { // ASCII: no accent to drop, no table to read
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
			continue
		}
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		if base, ok := unaccented[r]; ok {
			r = base
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unaccented maps the accented lower-case Latin letters (Latin-1 and Latin
// Extended-A, which cover Portuguese and its neighbours) to their base letter.
var unaccented = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäåāăą", 'c': "çćĉċč", 'd': "ďđ", 'e': "èéêëēĕėęě", 'g': "ĝğġģ",
		'h': "ĥħ", 'i': "ìíîïĩīĭįı", 'j': "ĵ", 'k': "ķ", 'l': "ĺļľŀł", 'n': "ñńņňŉ",
		'o': "òóôõöøōŏő", 'r': "ŕŗř", 's': "śŝşš", 't': "ţťŧ", 'u': "ùúûüũūŭůűų",
		'w': "ŵ", 'y': "ýÿŷ", 'z': "źżž",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()

// CodeKey returns the sort key of a (folded) code: bytes.Compare of two keys
// orders the codes naturally, as NaturalCompare does. Each run of ASCII
// digits becomes the byte '0', one byte holding 1 + the number of digits
// left once leading zeros are dropped, and those digits; every other byte is
// kept. Runs of more than 254 significant digits keep their first 254. A
// store may index and compare these bytes (SQL: a bytea column).
func CodeKey(s string) []byte {
	out := make([]byte, 0, len(s)+4)
	for s != "" {
		if !isDigit(s[0]) {
			out = append(out, s[0])
			s = s[1:]
			continue
		}
		run, rest := digits(s)
		run = strings.TrimLeft(run, "0")
		if len(run) > 254 {
			run = run[:254]
		}
		out = append(out, '0', byte(len(run)+1))
		out = append(out, run...)
		s = rest
	}
	return out
}

// NaturalCompare compares a and b with runs of ASCII digits compared by
// their numeric value (leading zeros ignored, "007" equal to "7"), and
// everything else byte by byte.
func NaturalCompare(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			da, ra := digits(a)
			db, rb := digits(b)
			na, nb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if c := cmp.Compare(len(na), len(nb)); c != 0 {
				return c
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digits(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}
