package domain

import (
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/shopspring/decimal"
)

// nodeTape is a budget's tree as a streamed report's first pass met it,
// recorded compactly (about a dozen bytes a line: what a node names is an
// index into the distinct strings, its id a number, its quantity a
// coefficient and an exponent), so that the second pass walks it again
// without the store: the walk a store gives may read the transaction's own
// memory, gone once the transaction ends, and the tree decoded would take
// hundreds of bytes a line.
type nodeTape struct {
	buf  []byte
	strs []string
	idx  map[string]uint64
	// The last bank written and its index: lines name few banks.
	lastBank    string
	lastBankIdx uint64
	haveBank    bool
}

// The kinds as the tape writes them; any other kind is written whole.
const (
	tapeStage byte = iota
	tapeComposition
	tapeResource
	tapeOther
)

func (t *nodeTape) str(s string) {
	i, ok := t.idx[s]
	if !ok {
		if t.idx == nil {
			t.idx = map[string]uint64{}
		}
		i = uint64(len(t.strs))
		t.strs = append(t.strs, s)
		t.idx[s] = i
	}
	t.buf = binary.AppendUvarint(t.buf, i)
}

func (t *nodeTape) bytes(s string) {
	t.buf = binary.AppendUvarint(t.buf, uint64(len(s)))
	t.buf = append(t.buf, s...)
}

// nodeNumber is the number of an id "n<number>" (AssignIDs), if it is one.
func nodeNumber(id string) (uint64, bool) {
	if len(id) < 2 || id[0] != 'n' || id[1] == '0' || len(id) > 19 {
		return 0, false
	}
	var n uint64
	for i := 1; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, true
}

// record appends the node n at depth.
func (t *nodeTape) record(n *BudgetNode, depth int) {
	t.buf = binary.AppendUvarint(t.buf, uint64(depth))
	switch n.Kind {
	case NodeStage:
		t.buf = append(t.buf, tapeStage)
	case NodeComposition:
		t.buf = append(t.buf, tapeComposition)
	case NodeResource:
		t.buf = append(t.buf, tapeResource)
	default:
		t.buf = append(t.buf, tapeOther)
		t.str(string(n.Kind))
	}
	if num, ok := nodeNumber(n.ID); ok {
		t.buf = binary.AppendUvarint(t.buf, num<<1)
	} else {
		t.buf = binary.AppendUvarint(t.buf, uint64(len(n.ID))<<1|1)
		t.buf = append(t.buf, n.ID...)
	}
	t.bytes(n.Description)
	if t.haveBank && n.Bank == t.lastBank {
		t.buf = binary.AppendUvarint(t.buf, t.lastBankIdx)
	} else {
		t.str(n.Bank)
		t.lastBank, t.lastBankIdx, t.haveBank = n.Bank, t.idx[n.Bank], true
	}
	t.str(n.Code)
	if n.Quantity.NumDigits() <= 18 {
		t.buf = append(t.buf, 0)
		t.buf = binary.AppendVarint(t.buf, n.Quantity.CoefficientInt64())
		t.buf = binary.AppendVarint(t.buf, int64(n.Quantity.Exponent()))
	} else {
		t.buf = append(t.buf, 1)
		t.bytes(n.Quantity.String())
	}
}

var errTape = errors.New("domain: corrupt node tape")

// walk is the tape's NodeWalk.
func (t *nodeTape) walk(visit func(*BudgetNode, int) error) error {
	b := t.buf
	uv := func() uint64 {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			panic(errTape)
		}
		b = b[k:]
		return v
	}
	text := func() string {
		l := uv()
		s := string(b[:l])
		b = b[l:]
		return s
	}
	var n BudgetNode
	for len(b) > 0 {
		depth := int(uv())
		kind := b[0]
		b = b[1:]
		n = BudgetNode{}
		switch kind {
		case tapeStage:
			n.Kind = NodeStage
		case tapeComposition:
			n.Kind = NodeComposition
		case tapeResource:
			n.Kind = NodeResource
		default:
			n.Kind = NodeKind(t.strs[uv()])
		}
		if id := uv(); id&1 == 0 {
			n.ID = "n" + strconv.FormatUint(id>>1, 10)
		} else {
			l := id >> 1
			n.ID = string(b[:l])
			b = b[l:]
		}
		n.Description = text()
		n.Bank, n.Code = t.strs[uv()], t.strs[uv()]
		form := b[0]
		b = b[1:]
		if form == 0 {
			m, k := binary.Varint(b)
			b = b[k:]
			e, k := binary.Varint(b)
			b = b[k:]
			if m != 0 || e != 0 {
				n.Quantity = decimal.New(m, int32(e))
			}
		} else {
			n.Quantity = decimal.RequireFromString(text())
		}
		if err := visit(&n, depth); err != nil {
			return err
		}
	}
	return nil
}
