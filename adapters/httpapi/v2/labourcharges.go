package v2

import (
	"bytes"
	"encoding/json"

	"github.com/shopspring/decimal"
)

// readNullNumber reads a number attribute that may be null: nil when the
// body does not carry it, a NullDecimal not Valid when it carries null
// (clear it), the number otherwise (a bad one is kept in rejected, nil).
func readNullNumber(b *attrBody, a attr) *decimal.NullDecimal {
	for _, n := range a.names {
		if raw, ok := b.attrs[n]; ok && bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			b.names[a.app], b.used[n], b.ptrs[a.app] = a.names[0], true, b.attrPointer(n)
			return &decimal.NullDecimal{}
		}
	}
	d := readNumber(b, a)
	if d == nil {
		return nil
	}
	v := decimal.NewNullDecimal(*d)
	return &v
}

// labourChargesAttr is a budget's own labour charges as written: nil (left
// out) when null, else the percentage in its shortest exact form.
func labourChargesAttr(c decimal.NullDecimal) *json.Number {
	if !c.Valid {
		return nil
	}
	n := json.Number(c.Decimal.String())
	return &n
}
