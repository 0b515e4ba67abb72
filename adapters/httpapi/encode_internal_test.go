package httpapi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/httpapi/encodetest"
	"github.com/shopspring/decimal"
)

// jsonOf is v as encoding/json writes it with SetEscapeHTML(false), without
// the newline.
func jsonOf(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestAppendNum: AppendNum writes what Num does, and Encoder.Num's problem
// is AnswerNumbersProblem's of the same number.
func TestAppendNum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := append([]decimal.Decimal{}, encodetest.Decimals...)
	for range 20000 {
		ds = append(ds, encodetest.Decimal(rng), decimal.New(rng.Int64()-rng.Int64(), int32(rng.IntN(41)-20)))
	}
	for _, d := range ds {
		want := string(Num(d))
		if got := string(AppendNum([]byte("x"), d)); got != "x"+want {
			t.Fatalf("AppendNum(%s exp %d) = %q, want %q", d.Coefficient(), d.Exponent(), got[1:], want)
		}
		e := NewEncoder()
		e.Num(d)
		if got, want := e.Problem(), AnswerNumbersProblem([]byte(want)); got != want {
			t.Fatalf("the problem of %s is %q, want %q", d, got, want)
		}
		e.Free()
	}
}

// TestAppendString: AppendString writes what encoding/json does with
// SetEscapeHTML(false), on every text of encodetest and random bytes.
func TestAppendString(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	texts := append([]string{}, encodetest.Texts...)
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			switch rng.IntN(4) {
			case 0:
				b[i] = byte(rng.IntN(0x20))
			case 1:
				b[i] = byte(0x80 + rng.IntN(0x80))
			default:
				b[i] = byte(rng.IntN(0x80))
			}
		}
		texts = append(texts, string(b), encodetest.Text(rng)+string(b)+encodetest.Text(rng))
	}
	for r := rune(0); r < 0x3000; r++ {
		texts = append(texts, string(r))
	}
	for _, s := range texts {
		want := jsonOf(t, s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		e := NewEncoder()
		e.StringBytes([]byte(s))
		if !bytes.Equal(e.Bytes(), want) {
			t.Fatalf("StringBytes(%q) = %s, want %s", s, e.Bytes(), want)
		}
		e.Free()
		for cut := 0; cut <= len(s); cut++ {
			e := NewEncoder()
			e.Strings(s[:cut], "/x/", s[cut:])
			if want := jsonOf(t, s[:cut]+"/x/"+s[cut:]); !bytes.Equal(e.Bytes(), want) {
				t.Fatalf("Strings(%q, %q) = %s, want %s", s[:cut], s[cut:], e.Bytes(), want)
			}
			e.Free()
		}
	}
}

// FuzzAppendString checks AppendString against encoding/json on any text.
func FuzzAppendString(f *testing.F) {
	for _, s := range encodetest.Texts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), jsonOf(t, s); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestTokenBounds: the bounds of a number token counted in place are those
// textBounds finds in its text, sign removed.
func TestTokenBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	toks := []string{"", "-", "0", "-0", "00.000", "1.", ".5", "1.2.3", "--5", "1e5", "1E+20", "-1e-30", "+1",
		"1000000000000000", "999999999999999", "0.00000000001", "0.0000000001", "-12345678901234567", "1.23456789012"}
	for range 50000 {
		var b strings.Builder
		if rng.IntN(3) == 0 {
			b.WriteByte('-')
		}
		for range rng.IntN(20) {
			b.WriteByte("0000123456789"[rng.IntN(13)])
		}
		if rng.IntN(2) == 0 {
			b.WriteByte('.')
			for range rng.IntN(16) {
				b.WriteByte("00001234567890"[rng.IntN(14)])
			}
		}
		if rng.IntN(10) == 0 {
			b.WriteString([]string{"e5", "E-3", "e+40", ".", "-"}[rng.IntN(5)])
		}
		toks = append(toks, b.String())
	}
	for _, tok := range toks {
		if got, want := tokenBounds([]byte(tok)), textBounds(strings.TrimPrefix(tok, "-")); got != want {
			t.Fatalf("tokenBounds(%q) = %q, textBounds = %q", tok, got, want)
		}
	}
}

// plainValue has no encoder of its own.
type plainValue struct {
	N json.Number `json:"n"`
	S string      `json:"s"`
}

// TestWriteJSONAppender: an answer with an encoder of its own is written
// as encoding/json writes its plain twin, a 409 included.
func TestWriteJSONAppender(t *testing.T) {
	for _, n := range []string{"1.5", "1000000000000000", "-3", "99999999999999999.5"} {
		for _, st := range []int{200, 201, 422} {
			got := recordJSON(st, appenderValue{plainValue{json.Number(n), "<a&b>\u2028"}})
			want := recordJSON(st, plainValue{json.Number(n), "<a&b>\u2028"})
			if got != want {
				t.Fatalf("%s %d: encoder wrote %s, reflection %s", n, st, got, want)
			}
		}
	}
}

type appenderValue struct{ v plainValue }

func (a appenderValue) AppendJSON(e *Encoder) {
	e.Raw(`{"n":`)
	d := decimal.RequireFromString(string(a.v.N))
	e.Num(d)
	e.Raw(`,"s":`)
	e.String(a.v.S)
	e.Byte('}')
}

func recordJSON(st int, v any) string {
	w := httptest.NewRecorder()
	WriteJSON(w, "application/json", st, v)
	return w.Header().Get("Content-Type") + " " + strconv.Itoa(w.Code) + " " + w.Body.String()
}
