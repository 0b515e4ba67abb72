package boltstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// BudgetStream reads a budget for a streamed report (app.BudgetStreamer):
// its fields are decoded as Budget decodes them, but not its tree, which
// the walk returned reads node by node, straight from the stored record in
// the file's memory map, without building it: valid until the transaction
// ends. A budget of 50,000 lines is then never held as decoded nodes and
// their decimals (hundreds of bytes a line), nor as a copy of its record.
func (t *tx) BudgetStream(id string) (*domain.Budget, domain.NodeWalk, error) {
	if err := t.readable(); err != nil {
		return nil, nil, err
	}
	data := t.bucket(bucketBudgets).Get([]byte(id))
	if data == nil {
		return nil, nil, notFound("budget %s not found", id)
	}
	corrupt := func(err error) error {
		return fmt.Errorf("boltstore: corrupt record %q in bucket %s: %w", id, bucketBudgets, err)
	}
	items, header, ok := splitItems(data) // header is a copy
	if !ok {
		var err error
		if items, header, err = splitMember(data, "items"); err != nil {
			return nil, nil, corrupt(err)
		}
	}
	var r budgetRecord
	if err := json.Unmarshal(header, &r); err != nil {
		return nil, nil, corrupt(err)
	}
	var d decoder
	b, err := decoded(&d, r.domain(&d), bucketBudgets, id)
	if err != nil {
		return nil, nil, err
	}
	walk := func(visit func(*domain.BudgetNode, int) error) error {
		if items == nil {
			return nil
		}
		sc := nodeScanner{data: items, interned: map[string]string{}}
		err := sc.nodes(1, visit)
		var bad *scanError
		if errors.As(err, &bad) {
			return corrupt(err)
		}
		return err
	}
	return b, walk, nil
}

// scanError is a record the scanner cannot read.
type scanError struct {
	at  int
	msg string
}

func (e *scanError) Error() string { return fmt.Sprintf("budget tree at byte %d: %s", e.at, e.msg) }

// splitItems finds the tree of a budget record as budgetRecord's encoding
// lays it out, without reading it: the member "items" follows "node_seq"
// and precedes "created_at", so the tree is what lies between the first
// `"items":[` and the last `],"created_at":`. Neither can stand inside a
// string of the record (a quote in a string is escaped: `\"`), nor inside
// the tree (its nodes have no such members). ok is false for a record laid
// out otherwise (splitMember reads it then).
func splitItems(data []byte) (items, rest []byte, ok bool) {
	const open, end = `"items":[`, `],"created_at":`
	i := bytes.Index(data, []byte(open))
	j := bytes.LastIndex(data, []byte(end))
	if i < 0 || j < i+len(open)-1 {
		return nil, nil, false
	}
	start, stop := i+len(open)-1, j+1 // the array, brackets included
	rest = make([]byte, 0, len(data)-(stop-start)+4)
	rest = append(append(append(rest, data[:start]...), "null"...), data[stop:]...)
	return data[start:stop], rest, true
}

// splitMember finds the member name of the JSON object data: its value,
// and the object with that value replaced by null (the object as it is when
// it has no such member; value is nil then).
func splitMember(data []byte, name string) (value, rest []byte, err error) {
	sc := nodeScanner{data: data}
	if err := sc.expect('{'); err != nil {
		return nil, nil, err
	}
	for {
		sc.space()
		if sc.peek() == '}' {
			return nil, data, nil
		}
		key, _, err := sc.str()
		if err != nil {
			return nil, nil, err
		}
		if err := sc.expect(':'); err != nil {
			return nil, nil, err
		}
		sc.space()
		start := sc.i
		if err := sc.skip(); err != nil {
			return nil, nil, err
		}
		if string(key) == name {
			value = data[start:sc.i]
			rest = make([]byte, 0, len(data)-len(value)+4)
			rest = append(append(append(rest, data[:start]...), "null"...), data[sc.i:]...)
			if bytes.Equal(value, []byte("null")) {
				value = nil
			}
			return value, rest, nil
		}
		sc.space()
		if sc.peek() == ',' {
			sc.i++
		}
	}
}

// nodeScanner reads the JSON of a stored budget tree (budgetNodeRecord
// arrays, as encoding/json writes them: a node's items after its other
// members) without reflection.
type nodeScanner struct {
	data     []byte
	i        int
	interned map[string]string // bank, kind and code strings, allocated once
	lastBank string
	node     domain.BudgetNode
}

func (sc *nodeScanner) fail(msg string) error { return &scanError{at: sc.i, msg: msg} }

func (sc *nodeScanner) space() {
	for sc.i < len(sc.data) {
		switch sc.data[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

func (sc *nodeScanner) peek() byte {
	if sc.i < len(sc.data) {
		return sc.data[sc.i]
	}
	return 0
}

func (sc *nodeScanner) expect(c byte) error {
	sc.space()
	if sc.peek() != c {
		return sc.fail(fmt.Sprintf("expected %q", c))
	}
	sc.i++
	return nil
}

// str reads a string: its bytes between the quotes, and whether they hold
// an escape.
func (sc *nodeScanner) str() ([]byte, bool, error) {
	if err := sc.expect('"'); err != nil {
		return nil, false, err
	}
	start, escaped := sc.i, false
	for i := start; i < len(sc.data); i++ { // most strings are short, and have no escape
		if c := sc.data[i]; c == '"' {
			sc.i = i + 1
			return sc.data[start:i], false, nil
		} else if c == '\\' {
			break
		}
	}
	for sc.i < len(sc.data) {
		switch sc.data[sc.i] {
		case '\\':
			escaped = true
			sc.i += 2
			continue
		case '"':
			s := sc.data[start:sc.i]
			sc.i++
			return s, escaped, nil
		}
		sc.i++
	}
	return nil, false, sc.fail("unterminated string")
}

// text reads a string value; interned ones are allocated once per scanner.
func (sc *nodeScanner) text(intern bool) (string, error) {
	raw, escaped, err := sc.str()
	if err != nil {
		return "", err
	}
	if escaped {
		var s string
		if err := json.Unmarshal(sc.data[sc.i-len(raw)-2:sc.i], &s); err != nil {
			return "", sc.fail(err.Error())
		}
		return s, nil
	}
	if !intern {
		return string(raw), nil
	}
	if s, ok := sc.interned[string(raw)]; ok { // no allocation for the look-up
		return s, nil
	}
	s := string(raw)
	sc.interned[s] = s
	return s, nil
}

// kind reads a node's kind: one of three, allocated once.
func (sc *nodeScanner) kind() (domain.NodeKind, error) {
	raw, escaped, err := sc.str()
	if err != nil || escaped {
		s, err := sc.text(true)
		return domain.NodeKind(s), err
	}
	for _, k := range []domain.NodeKind{domain.NodeResource, domain.NodeComposition, domain.NodeStage} {
		if string(raw) == string(k) {
			return k, nil
		}
	}
	sc.i -= len(raw) + 2
	s, err := sc.text(true)
	return domain.NodeKind(s), err
}

// bank reads a line's bank: the lines of a budget name few, one after
// another, so the last one is kept at hand.
func (sc *nodeScanner) bank() (string, error) {
	start := sc.i
	raw, escaped, err := sc.str()
	if err == nil && !escaped && sc.lastBank != "" && string(raw) == sc.lastBank {
		return sc.lastBank, nil
	}
	sc.i = start
	b, err := sc.text(true)
	sc.lastBank = b
	return b, err
}

// skip passes over one value.
func (sc *nodeScanner) skip() error {
	sc.space()
	switch sc.peek() {
	case '"':
		_, _, err := sc.str()
		return err
	case '{', '[':
		depth := 0
		for sc.i < len(sc.data) {
			switch sc.data[sc.i] {
			case '"':
				if _, _, err := sc.str(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					sc.i++
					return nil
				}
			}
			sc.i++
		}
		return sc.fail("unterminated value")
	default:
		start := sc.i
		for sc.i < len(sc.data) {
			switch sc.data[sc.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if sc.i == start {
					return sc.fail("expected a value")
				}
				return nil
			}
			sc.i++
		}
		return nil
	}
}

// nodes reads an array of nodes at depth, visiting each node before its
// children.
func (sc *nodeScanner) nodes(depth int, visit func(*domain.BudgetNode, int) error) error {
	if err := sc.expect('['); err != nil {
		return err
	}
	sc.space()
	if sc.peek() == ']' {
		sc.i++
		return nil
	}
	for {
		if err := sc.object(depth, visit); err != nil {
			return err
		}
		sc.space()
		switch sc.peek() {
		case ',':
			sc.i++
		case ']':
			sc.i++
			return nil
		default:
			return sc.fail("expected , or ]")
		}
	}
}

// object reads one node: its members, the node visited when its items
// begin (or at its end), then its children.
func (sc *nodeScanner) object(depth int, visit func(*domain.BudgetNode, int) error) error {
	if err := sc.expect('{'); err != nil {
		return err
	}
	n := &sc.node
	*n = domain.BudgetNode{}
	visited := false
	for first := true; ; first = false {
		sc.space()
		if sc.peek() == '}' {
			sc.i++
			break
		}
		if !first {
			if err := sc.expect(','); err != nil {
				return err
			}
		}
		key, _, err := sc.str()
		if err != nil {
			return err
		}
		if err := sc.expect(':'); err != nil {
			return err
		}
		if visited {
			return sc.fail("member " + string(key) + " after items")
		}
		switch string(key) {
		case "id":
			n.ID, err = sc.text(false)
		case "kind":
			n.Kind, err = sc.kind()
		case "description":
			n.Description, err = sc.text(false)
		case "bank":
			n.Bank, err = sc.bank()
		case "code":
			n.Code, err = sc.text(true)
		case "quantity":
			var raw []byte
			var escaped bool
			if raw, escaped, err = sc.str(); err == nil {
				if escaped {
					err = sc.fail("escape in a quantity")
				} else {
					n.Quantity, err = quantity(raw)
				}
			}
		case "items":
			sc.space()
			if sc.peek() == 'n' {
				err = sc.skip() // null
				break
			}
			visited = true
			if err = visit(n, depth); err != nil {
				return err
			}
			err = sc.nodes(depth+1, visit)
		default:
			err = sc.skip()
		}
		if err != nil {
			return err
		}
	}
	if !visited {
		return visit(n, depth)
	}
	return nil
}

// quantity parses a stored decimal ("12.25", written by encDec) to the
// decimal decimal.NewFromString gives, without its allocations when the
// digits fit in 18.
func quantity(raw []byte) (decimal.Decimal, error) {
	if len(raw) == 0 {
		return decimal.Decimal{}, nil
	}
	var m int64
	digits, frac, dot, neg := 0, 0, false, false
	for i, c := range raw {
		switch {
		case c == '-' && i == 0:
			neg = true
		case c == '.' && !dot:
			dot = true
		case c >= '0' && c <= '9':
			m = m*10 + int64(c-'0')
			digits++
			if dot {
				frac++
			}
		default:
			digits = 100 // not a plain decimal: let the library read it
		}
		if digits > 18 {
			d, err := decimal.NewFromString(string(raw))
			if err != nil {
				return decimal.Decimal{}, &scanError{msg: "quantity " + string(raw) + ": " + err.Error()}
			}
			return d, nil
		}
	}
	if digits == 0 {
		return decimal.Decimal{}, &scanError{msg: "quantity " + string(raw)}
	}
	if neg {
		m = -m
	}
	return decimal.New(m, -int32(frac)), nil
}
