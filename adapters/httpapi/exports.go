package httpapi

import (
	"encoding/json"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/domain"
	"github.com/shopspring/decimal"
)

// Preferred returns the offer (a media type, "type/subtype") the Accept
// header values prefer: the one with the highest quality; on a tie, the one
// matched most specifically (type/subtype, then type/*, then */*); on a tie
// again, the first offer. A request without Accept takes the first offer.
// ok is false when nothing in Accept allows any offer. A media range with a
// parameter other than q, charset, header or profile matches nothing (such
// as the JSON:API media type with an extension, which costdb does not
// implement).
func Preferred(accept []string, offers ...string) (offer string, ok bool) {
	if len(offers) == 0 {
		return "", false
	}
	if len(accept) == 0 {
		return offers[0], true
	}
	best, bestQ, bestSpec := -1, 0.0, -1
	for i, o := range offers {
		q, spec := quality(accept, o)
		if q <= 0 {
			continue
		}
		if q > bestQ || (q == bestQ && spec > bestSpec) {
			best, bestQ, bestSpec = i, q, spec
		}
	}
	if best < 0 {
		return "", false
	}
	return offers[best], true
}

// quality is the q Accept gives the media type, from its most specific
// matching range, and how specific that range is (2 exact, 1 type/*, 0
// */*); q 0 when no range matches.
func quality(accept []string, offer string) (float64, int) {
	typ, _, _ := strings.Cut(offer, "/")
	q, spec := 0.0, -1
	for _, v := range accept {
		for _, part := range strings.Split(v, ",") {
			if strings.TrimSpace(part) == "" {
				continue
			}
			mt, params, err := mime.ParseMediaType(part)
			if err != nil {
				continue
			}
			rq := 1.0
			usable := true
			for k, pv := range params {
				switch k {
				case "q":
					f, err := strconv.ParseFloat(pv, 64)
					if err != nil || f < 0 || f > 1 {
						usable = false
					}
					rq = f
				case "charset", "header", "profile":
				default:
					usable = false
				}
			}
			if !usable {
				continue
			}
			s := -1
			switch {
			case mt == offer:
				s = 2
			case mt == typ+"/*":
				s = 1
			case mt == "*/*":
				s = 0
			}
			if s > spec {
				q, spec = rq, s
			}
		}
	}
	return q, spec
}

// WriteExport answers 200 with a file: its media type, and a
// Content-Disposition naming it ("attachment" for a download, "inline" for
// something a browser shows, such as a chart).
func WriteExport(w http.ResponseWriter, mediaType, disposition, filename string, body []byte) {
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": filename}))
	WriteBody(w, http.StatusOK, body)
}

// WriteBody answers status with a whole body, its Content-Length set (the
// other headers are the caller's): the answer goes out in one piece, not
// chunked, and the client knows its length.
func WriteBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// Money writes an amount as a JSON number with at least two decimal places
// (2620 → 2620.00, 102.8 → 102.80), and every digit it has beyond them (a
// SICRO-model unit price may carry four).
func Money(d decimal.Decimal) json.Number {
	var buf [24]byte
	return json.Number(AppendMoney(buf[:0], d))
}

// AppendMoney appends d as Money writes it.
func AppendMoney(dst []byte, d decimal.Decimal) []byte {
	if c, ok := domain.Cents(d); ok { // whole centavos: StringFixed(2)'s text, without big.Int
		return domain.AppendCents(dst, c, '.')
	}
	if d.Equal(d.Truncate(2)) {
		return append(dst, d.StringFixed(2)...)
	}
	return AppendNum(dst, d)
}
