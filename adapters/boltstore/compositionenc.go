package boltstore

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// appendCompositionRecord appends the stored record of c: byte for byte
// what encoding/json writes of the compositionRecord of c (a test holds it to
// that), without the record, the reflection and the intermediate strings.
// Every add_items and remove_items writes one (issue 11, R2).
func appendCompositionRecord(dst []byte, c *domain.Composition) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendJSONString(dst, c.ID)
	dst = append(dst, `,"company_id":`...)
	dst = appendJSONString(dst, c.CompanyID)
	dst = append(dst, `,"user_id":`...)
	dst = appendJSONString(dst, c.UserID)
	dst = append(dst, `,"department_id":`...)
	dst = appendJSONString(dst, c.DepartmentID)
	dst = append(dst, `,"group_id":`...)
	dst = appendJSONString(dst, c.GroupID)
	dst = append(dst, `,"code":`...)
	dst = appendJSONString(dst, c.Code)
	dst = append(dst, `,"second_code":`...)
	dst = appendJSONString(dst, c.SecondCode)
	dst = append(dst, `,"description":`...)
	dst = appendJSONString(dst, c.Description)
	dst = append(dst, `,"type":`...)
	dst = appendJSONString(dst, c.Type)
	dst = append(dst, `,"unit":`...)
	dst = appendJSONString(dst, c.Unit)
	dst = append(dst, `,"state":`...)
	dst = appendJSONString(dst, c.State)
	dst = append(dst, `,"is_sicro":`...)
	dst = strconv.AppendBool(dst, c.IsSicro)
	dst = append(dst, `,"labor":`...)
	dst = strconv.AppendBool(dst, c.Labor)
	dst = append(dst, `,"rounding":`...)
	dst = strconv.AppendInt(dst, int64(c.Rounding), 10)
	dst = append(dst, `,"note":`...)
	dst = appendJSONString(dst, c.Note)
	dst = append(dst, `,"team_production":`...)
	dst = appendDecString(dst, c.TeamProduction)
	dst = append(dst, `,"fic":`...)
	dst = appendDecString(dst, c.FIC)
	dst = append(dst, `,"labor_addition":`...)
	dst = appendDecString(dst, c.LaborAddition)
	dst = append(dst, `,"banks":`...)
	if c.Banks == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, b := range c.Banks {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"name":`...)
			dst = appendJSONString(dst, b.Name)
			dst = append(dst, `,"state":`...)
			dst = appendJSONString(dst, b.State)
			dst = append(dst, `,"month":`...)
			dst = appendJSONString(dst, b.Month)
			dst = append(dst, `,"region":`...)
			dst = appendJSONString(dst, b.Region)
			dst = append(dst, `,"report":`...)
			dst = strconv.AppendBool(dst, b.Report)
			if b.AskedRegion != "" {
				dst = append(dst, `,"asked_region":`...)
				dst = appendJSONString(dst, b.AskedRegion)
			}
			if b.WithLaborCharges != nil {
				dst = append(dst, `,"with_labor_charges":`...)
				dst = strconv.AppendBool(dst, *b.WithLaborCharges)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"items":`...)
	if c.Items == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i, it := range c.Items {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"bank":`...)
			dst = appendJSONString(dst, it.Bank)
			dst = append(dst, `,"code":`...)
			dst = appendJSONString(dst, it.Code)
			dst = append(dst, `,"kind":`...)
			dst = appendJSONString(dst, string(it.Kind))
			dst = append(dst, `,"quantity":`...)
			dst = appendDecString(dst, it.Quantity)
			dst = append(dst, `,"utilization":`...)
			if it.Utilization.Valid {
				dst = appendDecString(dst, it.Utilization.Decimal)
			} else {
				dst = append(dst, "null"...)
			}
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"created_at":"`...)
	if !c.CreatedAt.IsZero() {
		dst = c.CreatedAt.UTC().AppendFormat(dst, time.RFC3339Nano)
	}
	return append(dst, `"}`...)
}

// appendJSONString appends s as encoding/json writes a string (HTML
// characters escaped). A string it writes as it is (printable ASCII but
// for the escaped characters, and valid UTF-8 without U+2028 and U+2029:
// record text, accents included) is copied; any other goes through
// encoding/json.
func appendJSONString(dst []byte, s string) []byte {
	plain, ascii := true, true
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= utf8.RuneSelf:
			ascii = false
		case b < 0x20, b == '"', b == '\\', b == '<', b == '>', b == '&':
			plain = false
		}
	}
	if plain && !ascii {
		plain = utf8.ValidString(s) && !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029")
	}
	if plain {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	q, err := json.Marshal(s)
	if err != nil { // a string always encodes
		panic(err)
	}
	return append(dst, q...)
}

// appendDecString appends encDec(d) as a JSON string: the decimal with its
// own places. A coefficient of up to 18 digits is written from an int64.
func appendDecString(dst []byte, d decimal.Decimal) []byte {
	dst = append(dst, '"')
	if e := d.Exponent(); e <= 0 && e > -19 && d.NumDigits() <= 18 {
		dst = domain.AppendScaled(dst, d.CoefficientInt64(), int(-e), '.')
	} else {
		dst = append(dst, encDec(d)...)
	}
	return append(dst, '"')
}
