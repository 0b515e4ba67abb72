package boltstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestCompositionRecordIsJSONMarshal: the stored record of a composition
// is what encoding/json writes of its compositionRecord, and reads back as
// the composition, on random compositions
// whose text holds what JSON escapes (quotes, controls, HTML characters,
// invalid UTF-8, U+2028) and whose decimals run from zero to past 18
// digits, negative, with and without places.
func TestCompositionRecordIsJSONMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"a", "Z", "9", " ", "ç", "ã", "€", "\"", "\\", "<", ">", "&", "\n", "\t", "\x00", "\x1f", "\x7f", "\xff", "\xe2\x80", "\u2028", "\u2029", "𝄞", "/"}
	str := func() string {
		var b []byte
		for range rng.IntN(8) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		return string(b)
	}
	dec := func() decimal.Decimal {
		switch rng.IntN(6) {
		case 0:
			return decimal.Decimal{}
		case 1: // past int64
			v := new(big.Int).Lsh(big.NewInt(rng.Int64N(1000)+1), 64)
			if rng.IntN(2) == 0 {
				v.Neg(v)
			}
			return decimal.NewFromBigInt(v, -int32(rng.IntN(25)))
		case 2: // a positive exponent
			return decimal.New(rng.Int64N(10000)-5000, int32(rng.IntN(4)))
		default:
			v := rng.Int64N(1_000_000_000_000_000_000) // up to 18 digits
			if rng.IntN(3) == 0 {
				v = rng.Int64N(100)
			}
			if rng.IntN(4) == 0 {
				v = -v
			}
			return decimal.New(v, -int32(rng.IntN(21)))
		}
	}
	for n := range 5000 {
		c := &domain.Composition{
			ID: str(), CompanyID: str(), UserID: str(), DepartmentID: str(), GroupID: str(), Code: str(),
			SecondCode: str(), Description: str(), Type: str(), Unit: str(), State: str(),
			IsSicro: rng.IntN(2) == 0, Labor: rng.IntN(2) == 0, Rounding: domain.RoundingMethod(rng.IntN(3)), Note: str(),
			TeamProduction: dec(), FIC: dec(), LaborAddition: dec(),
		}
		if rng.IntN(3) > 0 {
			c.CreatedAt = time.Unix(rng.Int64N(4_000_000_000), rng.Int64N(1_000_000_000)*int64(rng.IntN(2))).In(time.FixedZone("x", -3*3600))
		}
		if k := rng.IntN(4); k > 0 {
			c.Banks = make([]domain.BankRef, k-1)
			for i := range c.Banks {
				b := domain.BankRef{Name: str(), State: str(), Month: str(), Region: str(), Report: rng.IntN(2) == 0}
				if rng.IntN(2) == 0 {
					b.AskedRegion = str()
				}
				if rng.IntN(2) == 0 {
					w := rng.IntN(2) == 0
					b.WithLaborCharges = &w
				}
				c.Banks[i] = b
			}
		}
		if k := rng.IntN(8); k > 0 {
			c.Items = make([]domain.Item, k-1)
			for i := range c.Items {
				it := domain.Item{Bank: str(), Code: str(), Kind: domain.ItemKind(str()), Quantity: dec()}
				if rng.IntN(2) == 0 {
					it.Utilization = decimal.NewNullDecimal(dec())
				}
				c.Items[i] = it
			}
		}
		want, err := json.Marshal(toCompositionRecord(c))
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeCompositionRecord(c)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("composition %d:\n got %s\nwant %s", n, got, want)
		}
		// And it reads back as the composition it was written from (but for
		// invalid UTF-8, which encoding/json writes as U+FFFD).
		if bytes.Contains(got, []byte(`\ufffd`)) {
			continue
		}
		var r compositionRecord
		if err := json.Unmarshal(got, &r); err != nil {
			t.Fatalf("composition %d: %v", n, err)
		}
		var d decoder
		back := r.domain(&d)
		if d.err != nil {
			t.Fatalf("composition %d: %v", n, d.err)
		}
		again, err := encodeCompositionRecord(back)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("composition %d read back as\n%s\nnot\n%s (%v)", n, again, got, err)
		}
	}
}

// BenchmarkCompositionRecord is the stored record of a composition of 20
// items written (encoding/json of the record struct):
// docs/decisions.md ("The stored composition record is written by
// encoding/json") sets it beside a composition write.
func BenchmarkCompositionRecord(b *testing.B) {
	c := &domain.Composition{ID: "01JABCDEFGHJKMNPQRSTVWXYZ0", CompanyID: "01JABCDEFGHJKMNPQRSTVWXYZ1", UserID: "01JABCDEFGHJKMNPQRSTVWXYZ2",
		DepartmentID: "01JABCDEFGHJKMNPQRSTVWXYZ3", Code: "C-0001", Description: "Composição de teste, concreto e formas",
		Type: "ESTR", Unit: "M3", State: "MG", Rounding: domain.RoundingMethod(1), CreatedAt: time.Now(),
		Banks: []domain.BankRef{{Name: "SINAPI", State: "MG", Month: "2024-01", Report: true}}}
	for i := range 20 {
		c.Items = append(c.Items, domain.Item{Bank: "SINAPI", Code: fmt.Sprint(34500 + i), Kind: domain.KindResource, Quantity: decimal.New(int64(1250+i), -3)})
	}
	b.Run("encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeCompositionRecord(c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
