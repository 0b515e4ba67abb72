package v1

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// errorBody is the v1 error body, Rails-like.
type errorBody struct {
	Message string              `json:"message"`
	Errors  map[string][]string `json:"errors"`
}

// fieldMapper turns a domain field pointer into the names of the fields of
// the v1 request body it is about (usually one).
type fieldMapper func(ptr string) []string

// plainFields names fields without renaming any segment.
func plainFields(ptr string) []string { return []string{fieldName(ptr, nil)} }

// renamed names fields renaming segments as the table says (domain name → v1
// name), for requests whose keys differ from the domain's pointers.
func renamed(table map[string]string) fieldMapper {
	return func(ptr string) []string { return []string{fieldName(ptr, table)} }
}

// fail answers with the v1 error body for err.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	h.failAs(w, r, err, plainFields)
}

// failAs answers with the v1 error body for err, naming fields with m.
func (h *handler) failAs(w http.ResponseWriter, r *http.Request, err error, m fieldMapper) {
	status := httpapi.Status(err)
	h.env.LogError(r, err)
	if status == http.StatusInternalServerError {
		writeError(w, status, "internal error", nil, nil)
		return
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="costdb"`)
	}
	httpapi.SetRetryAfter(w, err)
	msg := domain.ErrorMessage(err)
	fields, more := domain.ListedFields(err)
	if domain.ErrorCode(err) == domain.EBADREQUEST && len(fields) == 1 && more == 0 {
		// A value of the wrong JSON type: say it with the v1 field name.
		msg = strings.Join(m(fields[0].Field), ", ") + " " + fields[0].Message
	}
	if more > 0 {
		// The errors not listed, as one message about the record as a
		// whole (v1's body has no other place for it).
		fields = append(fields[:len(fields):len(fields)], domain.FieldError{Field: "", Message: domain.MoreFieldErrors(more)})
	}
	writeError(w, status, msg, fields, m)
}

// panicked answers a request whose handler panicked (already logged).
func (h *handler) panicked(w http.ResponseWriter, _ *http.Request, _ error) {
	writeError(w, http.StatusInternalServerError, "internal error", nil, nil)
}

// writeError writes a v1 error body.
// Fields are named by m, or plainly when m is nil.
func writeError(w http.ResponseWriter, status int, msg string, fields []domain.FieldError, m fieldMapper) {
	name := m
	if name == nil {
		name = plainFields
	}
	body := errorBody{Message: msg, Errors: map[string][]string{}}
	for _, f := range fields {
		for _, k := range name(f.Field) {
			body.Errors[k] = append(body.Errors[k], f.Message)
		}
	}
	httpapi.WriteJSON(w, mediaType, status, body)
}

// fieldName turns a JSON pointer into a Rails-like field name: "/code" →
// "code", "/items/2/code" → "items[2].code", "/locals/MG/pnd" →
// "locals[MG].pnd". Array indexes and the keys of `locals` (a map keyed by
// state) go in brackets; other segments are renamed by table, when it has
// them. The empty pointer (the record as a whole) is "base", as in Rails.
func fieldName(ptr string, table map[string]string) string {
	ptr = strings.TrimPrefix(ptr, "/")
	if ptr == "" {
		return "base"
	}
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	var b strings.Builder
	prev := ""
	for i, seg := range strings.Split(ptr, "/") {
		seg = unescape.Replace(seg)
		key := isIndex(seg) || prev == "locals"
		prev = seg
		switch {
		case key:
			b.WriteString("[" + seg + "]")
			continue
		case table[seg] != "":
			seg = table[seg]
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}
