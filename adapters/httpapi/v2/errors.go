package v2

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/costdb/costdb/adapters/httpapi"
	"github.com/costdb/costdb/domain"
)

// errorObject is one JSON:API error object. google/jsonapi's ErrorObject has
// no `source`, hence this small type.
type errorObject struct {
	Status string       `json:"status"`
	Code   string       `json:"code"`
	Title  string       `json:"title"`
	Detail string       `json:"detail"`
	Source *errorSource `json:"source,omitempty"`
	Meta   *errorMeta   `json:"meta,omitempty"`
}

// errorMeta is the meta of the error object that stands for the field
// errors an answer does not list (domain.MaxFieldErrors are).
type errorMeta struct {
	OmittedErrors int `json:"omitted_errors"`
}

// errorSource says what in the request an error is about: a JSON pointer
// into the body, or a query parameter.
type errorSource struct {
	Pointer   string `json:"pointer,omitempty"`
	Parameter string `json:"parameter,omitempty"`
}

// titles are the `title` of error objects, by code. A title does not change
// from one occurrence of a problem to the next; the detail does.
var titles = map[string]string{
	domain.EINVALID:      "Validation failed",
	domain.EBADREQUEST:   "Bad request",
	domain.ENOTFOUND:     "Not found",
	domain.ECONFLICT:     "Conflict",
	domain.EUNAUTHORIZED: "Unauthorized",
	domain.EUNAVAILABLE:  "Service unavailable",
	domain.ESTORAGEFULL:  "Insufficient storage",
	domain.EINTERNAL:     "Internal error",
	httpapi.ETOOLARGE:    "Request body too large",
	httpapi.EUNSUPPORTED: "Unsupported media type",
	httpapi.ETOOMANY:     "Too many requests",
	eForbidden:           "Forbidden",
}

// eForbidden is the code of a request JSON:API says to refuse with 403: a
// create that names its own id.
const eForbidden = "forbidden"

// status maps an error to its HTTP status: the shared table plus the codes
// only v2 uses.
func status(err error) int {
	if domain.ErrorCode(err) == eForbidden {
		return http.StatusForbidden
	}
	return httpapi.Status(err)
}

// paramError is a bad query parameter (400, with source.parameter).
type paramError struct {
	Param   string
	Message string
}

func (e *paramError) Error() string { return e.Param + ": " + e.Message }

// paramErrors is every bad query parameter of a request.
type paramErrors []*paramError

func (e paramErrors) Error() string {
	if len(e) == 0 {
		return "bad query parameters"
	}
	return e[0].Error()
}

// pointerMap turns a field pointer as the app names it ("/state") into a
// pointer into the request document as the client sent it
// ("/data/attributes/location"). nil keeps pointers as they are.
type pointerMap func(string) string

// writeError answers err as a JSON:API errors document. A 500 says only
// "internal error"; its details are logged.
func (h *handlers) writeError(w http.ResponseWriter, r *http.Request, err error) {
	h.writeErrorAt(w, r, err, nil)
}

// writeErrorAt is writeError with the field pointers of err mapped by pm.
func (h *handlers) writeErrorAt(w http.ResponseWriter, r *http.Request, err error, pm pointerMap) {
	objs := errorObjects(err, pm)
	// Logged with the status the client gets: bad query parameters are
	// 400 and a forbidden create 403, though httpapi.Status knows neither.
	st, _ := strconv.Atoi(objs[0].Status)
	h.env.LogStatus(r, st, err)
	httpapi.SetRetryAfter(w, err)
	writeErrors(w, objs)
}

// writePanic answers a recovered panic (already logged by the recoverer).
func (h *handlers) writePanic(w http.ResponseWriter, _ *http.Request, err error) {
	writeErrors(w, errorObjects(err, nil))
}

// errorObjects turns err into error objects: one per bad field or query
// parameter, else one. The problems of one query parameter (sort=x,x,y
// names two unknown fields, one of them twice) make one error object whose
// detail lists each once: the schema wants the error objects of a document
// unique, and a client wants one answer per parameter.
func errorObjects(err error, pm pointerMap) []errorObject {
	var pe paramErrors
	if errors.As(err, &pe) {
		var out []errorObject
		at := map[string]int{}
		for _, p := range pe {
			if i, ok := at[p.Param]; ok {
				if !strings.Contains("; "+out[i].Detail+"; ", "; "+p.Message+"; ") {
					out[i].Detail += "; " + p.Message
				}
				continue
			}
			at[p.Param] = len(out)
			o := errorObject{Status: "400", Code: domain.EBADREQUEST, Title: titles[domain.EBADREQUEST], Detail: p.Message}
			if p.Param != "" {
				o.Source = &errorSource{Parameter: p.Param}
			}
			out = append(out, o)
		}
		return out
	}
	st := status(err)
	code := domain.ErrorCode(err)
	if st >= 500 && st != http.StatusServiceUnavailable && st != http.StatusInsufficientStorage {
		code = domain.EINTERNAL
	}
	base := errorObject{Status: strconv.Itoa(st), Code: code, Title: titles[code], Detail: domain.ErrorMessage(err)}
	if code == domain.EINTERNAL {
		base.Detail = "internal error"
	}
	if base.Title == "" {
		base.Title = http.StatusText(st)
	}
	fields, more := domain.ListedFields(err)
	if len(fields) == 0 || code == domain.EINTERNAL {
		return []errorObject{base}
	}
	out := make([]errorObject, 0, len(fields)+1)
	seen := map[string]bool{}
	for _, f := range fields {
		ptr := f.Field
		if pm != nil {
			ptr = pm(ptr)
		}
		// The schema wants the error objects of a document unique.
		key := ptr + "\x00" + f.Message
		if seen[key] {
			continue
		}
		seen[key] = true
		o := base
		o.Detail = f.Message
		if ptr != "" {
			o.Source = &errorSource{Pointer: ptr}
		}
		out = append(out, o)
	}
	if more > 0 {
		o := base
		o.Detail = domain.MoreFieldErrors(more)
		o.Meta = &errorMeta{OmittedErrors: more}
		out = append(out, o)
	}
	return out
}

// negotiationError is the error object of a 406 or 415 answer.
func negotiationError(st int, detail string) errorObject {
	code := "not_acceptable"
	if st == http.StatusUnsupportedMediaType {
		code = "unsupported_media_type"
	}
	return errorObject{Status: strconv.Itoa(st), Code: code, Title: http.StatusText(st), Detail: detail}
}

// writeErrors writes an errors document; the status is that of the first
// error (all errors of one answer share it).
func writeErrors(w http.ResponseWriter, objs []errorObject) {
	st, _ := strconv.Atoi(objs[0].Status)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Errors []errorObject `json:"errors"`
	}{objs})
	w.Header().Set("Content-Type", mediaType)
	if st == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="costdb"`)
	}
	httpapi.WriteBody(w, st, buf.Bytes())
}
