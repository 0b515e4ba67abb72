package boltstore

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// TestCompositionRecordIsJSONMarshal: the hand-written record encoder
// writes what encoding/json writes of the record, on random compositions
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
		if got := appendCompositionRecord(nil, c); !bytes.Equal(got, want) {
			t.Fatalf("composition %d:\n got %s\nwant %s", n, got, want)
		}
	}
}

// toCompositionRecord is the record as the store wrote it before
// appendCompositionRecord, marshalled by encoding/json: the test's oracle.
func toCompositionRecord(c *domain.Composition) compositionRecord {
	r := compositionRecord{
		ID: c.ID, CompanyID: c.CompanyID, UserID: c.UserID, DepartmentID: c.DepartmentID, GroupID: c.GroupID,
		Code: c.Code, SecondCode: c.SecondCode, Description: c.Description, Type: c.Type, Unit: c.Unit,
		State: c.State, IsSicro: c.IsSicro, Labor: c.Labor, Rounding: int(c.Rounding), Note: c.Note,
		TeamProduction: encDec(c.TeamProduction), FIC: encDec(c.FIC), LaborAddition: encDec(c.LaborAddition),
		CreatedAt: encTime(c.CreatedAt),
	}
	if c.Banks != nil {
		r.Banks = make([]bankRefRecord, len(c.Banks))
		for i, b := range c.Banks {
			r.Banks[i] = bankRefRecord{Name: b.Name, State: b.State, Month: b.Month, Region: b.Region, Report: b.Report, AskedRegion: b.AskedRegion, WithLaborCharges: b.WithLaborCharges}
		}
	}
	if c.Items != nil {
		r.Items = make([]itemRecord, len(c.Items))
		for i, it := range c.Items {
			ir := itemRecord{Bank: it.Bank, Code: it.Code, Kind: string(it.Kind), Quantity: encDec(it.Quantity)}
			if it.Utilization.Valid {
				u := encDec(it.Utilization.Decimal)
				ir.Utilization = &u
			}
			r.Items[i] = ir
		}
	}
	return r
}
