// Package httpapi holds what the two HTTP API generations share: the
// authentication middleware, the request body cap, the panic recoverer,
// strict JSON decoding, the mapping of error codes to statuses, and how
// times and decimals are written. The generations themselves live in
// httpapi/v1 (plain JSON) and httpapi/v2 (JSON:API); httpapi/server mounts
// both on one chi router.
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/app/storecache"
	"github.com/costdb/costdb/domain"
	"github.com/go-chi/chi/v5"
	"github.com/shopspring/decimal"
)

// Env is what every handler needs.
type Env struct {
	App *app.Service
	// Speed is the speed layer App's store is wrapped in: Authenticate
	// authorizes through its user cache and reads with it the write
	// generation that Conditional tags answers with and keeps them under.
	// nil: every request reads its user, and answers are neither tagged
	// nor kept.
	Speed *storecache.Store
	// Location is the time zone created_at is written in.
	Location *time.Location
	// MaxBodyBytes caps request bodies; larger ones answer 413.
	MaxBodyBytes int64
	// Limiter slows repeated failed authentications; nil disables it.
	Limiter *AuthLimiter
	Log     *slog.Logger

	// TrustedProxies are the peers whose X-Forwarded-For names the client
	// (ClientAddr); none by default.
	TrustedProxies []netip.Prefix

	// NoResponseCache turns off the response cache of Conditional (the
	// ETags and 304 answers stay); the load script uses it to measure
	// rendering.
	NoResponseCache bool
	// ResponseCacheBytes bounds the answers the response cache keeps, by
	// their bytes (DefaultResponseCacheBytes when 0).
	ResponseCacheBytes int64
	// Responses is the response cache the generations share; nil: each
	// Conditional makes its own (server.Handler makes one for both).
	Responses *Responses

	// Exports caps the XLSX and PDF documents computed at once; nil: no
	// cap.
	Exports *ExportLimit

	// Observability: the access log, the request metrics and readiness.
	Observability
}

// ETOOLARGE is the code of the error for a body over the cap (HTTP 413).
const ETOOLARGE = "too_large"

// EUNSUPPORTED is the code of the error for a request body in a media type
// the API does not read (HTTP 415).
const EUNSUPPORTED = "unsupported_media_type"

// Status maps an error code to its HTTP status.
func Status(err error) int {
	switch domain.ErrorCode(err) {
	case domain.EINVALID:
		return http.StatusUnprocessableEntity
	case domain.EBADREQUEST:
		return http.StatusBadRequest
	case domain.ENOTFOUND:
		return http.StatusNotFound
	case domain.ECONFLICT:
		return http.StatusConflict
	case domain.EUNAUTHORIZED:
		return http.StatusUnauthorized
	case domain.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case domain.ESTORAGEFULL:
		return http.StatusInsufficientStorage
	case ETOOLARGE:
		return http.StatusRequestEntityTooLarge
	case EUNSUPPORTED:
		return http.StatusUnsupportedMediaType
	case ETOOMANY:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// LogError logs err as the status it answers with (Status).
func (e *Env) LogError(r *http.Request, err error) {
	e.LogStatus(r, Status(err), err)
}

// LogStatus logs an error answered with status. A real fault (5xx) is
// logged at ERROR with its details, which are never shown to the client. A
// client error (4xx: bad input, unknown record, bad credentials, throttled)
// is logged at INFO with its status and message: it is no fault of the
// service, and must not raise an alarm.
func (e *Env) LogStatus(r *http.Request, status int, err error) {
	if e.Log == nil || err == nil {
		return
	}
	rid := ""
	if ri := RequestInfoFrom(r.Context()); ri != nil {
		rid = ri.ID
	}
	if status >= 500 {
		e.Log.Error("request failed", "request_id", rid, "method", r.Method, "path", r.URL.Path, "status", status, "err", err)
		return
	}
	e.Log.Info("client error", "request_id", rid, "method", r.Method, "path", r.URL.Path, "status", status, "err", err.Error())
}

// FormatTime writes t as RFC 3339 with a numeric offset in the configured
// time zone (never "Z").
func (e *Env) FormatTime(t time.Time) string {
	return string(e.AppendTime(nil, t))
}

// AppendTime appends FormatTime(t).
func (e *Env) AppendTime(dst []byte, t time.Time) []byte {
	loc := e.Location
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).AppendFormat(dst, "2006-01-02T15:04:05-07:00")
}

// Num writes a decimal as a JSON number with every digit kept, up to
// domain.MaxDecimalPlaces places: a computed number with more (an exploded
// quantity of a budget, the product of several coefficients) is rounded
// half up to that many, so that no answer holds a longer number.
func Num(d decimal.Decimal) json.Number {
	if d.Exponent() < -domain.MaxDecimalPlaces {
		d = domain.RoundHalfUp(d, domain.MaxDecimalPlaces)
	}
	return json.Number(d.String())
}

// WriteJSON writes v as JSON with the given media type and status. The media
// type header is set before the status is written.
func WriteJSON(w http.ResponseWriter, mediaType string, status int, v any) {
	if v == nil || status == http.StatusNoContent {
		w.Header().Set("Content-Type", mediaType)
		w.WriteHeader(status)
		return
	}
	if a, ok := v.(JSONAppender); ok { // written without reflection (encode.go)
		e := NewEncoder()
		a.AppendJSON(e)
		e.Byte('\n')
		WriteAnswer(w, mediaType, status, e)
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	if p := AnswerNumbersProblem(buf.Bytes()); p != "" && status < 300 {
		// Never a number out of bounds (AnswerNumbersProblem): the record
		// is in a state that cannot be shown.
		status = http.StatusConflict
		buf.Reset()
		_ = enc.Encode(map[string]any{"message": p, "errors": map[string][]string{"base": {p}}})
	}
	w.Header().Set("Content-Type", mediaType)
	WriteBody(w, status, buf.Bytes())
}

// DecodeJSON reads the request body into v. A body over the cap is
// ETOOLARGE; an empty body, a null body, malformed JSON, trailing data or a
// value of the wrong JSON type is EBADREQUEST, with the position or field
// named.
func DecodeJSON(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return domain.Errorf(ETOOLARGE, "the request body is larger than %d bytes", mbe.Limit)
		}
		return domain.Errorf(domain.EBADREQUEST, "could not read the request body")
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return domain.Errorf(domain.EBADREQUEST, "the request body is empty; a JSON object is expected")
	}
	if strings.TrimSpace(string(body)) == "null" {
		// encoding/json takes null as "nothing to set": every body is an
		// object, so null is as wrong as [] or 42.
		return domain.Errorf(domain.EBADREQUEST, "the request body must be a JSON object, not null")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return domain.Errorf(domain.EBADREQUEST, "the request body holds more than one JSON value")
	}
	return nil
}

func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return domain.Errorf(domain.EBADREQUEST, "the request body is not valid JSON (at byte %d): %s", syn.Offset, syn.Error())
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return domain.Errorf(domain.EBADREQUEST, "the request body must be a JSON %s", "object")
		}
		e := domain.Errorf(domain.EBADREQUEST, "field %s must be a JSON %s, not %s", field, jsonKind(typ.Type.String()), typ.Value)
		e.Fields = []domain.FieldError{{Field: "/" + strings.ReplaceAll(field, ".", "/"), Message: fmt.Sprintf("must be a JSON %s", jsonKind(typ.Type.String()))}}
		return e
	case errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Errorf(domain.EBADREQUEST, "the request body is not valid JSON: it ends too early")
	}
	return domain.Errorf(domain.EBADREQUEST, "the request body is not valid JSON: %s", err.Error())
}

func jsonKind(goType string) string {
	switch {
	case strings.Contains(goType, "Decimal"), strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "float"):
		return "number"
	case goType == "string":
		return "string"
	case goType == "bool":
		return "boolean"
	case strings.HasPrefix(goType, "[]"):
		return "array"
	}
	return "object"
}

type ctxKey int

const (
	principalKey ctxKey = 1
	// generationKey holds the storecache.Generation that Authenticate read with
	// the caller of a GET.
	generationKey ctxKey = 2
	// narrowKey holds the Narrow of a GET's route.
	narrowKey ctxKey = 3
)

// Narrow is what a route knows, before its handler runs, of the company's
// compositions its GET may read (Env.Authenticated), so that Conditional
// may tag the answer by less than all of them when the handler indeed read
// no more (storecache.Reads): one composition by its id (the GET of a
// composition), or none (the GETs of own resources).
type Narrow struct {
	Composition    string
	NoCompositions bool
}

// WithPrincipal returns ctx carrying the authenticated caller.
func WithPrincipal(ctx context.Context, p domain.Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// PrincipalFrom returns the authenticated caller of the request. It panics
// when the request did not pass through Authenticate: that is a wiring bug.
func PrincipalFrom(ctx context.Context) domain.Principal {
	p, ok := ctx.Value(principalKey).(domain.Principal)
	if !ok {
		panic("httpapi: no principal in context; route is missing the Authenticate middleware")
	}
	return p
}

// Authenticated adds the routes routes declares behind the stack every
// generation puts its company's records behind, in this order: the access
// token (Authenticate: allowBare, onError), then conditional requests and
// the response cache (Conditional), which key on the caller it names.
// narrow says, for a request, what of the company's compositions its route
// may read (Narrow; nil: any): such an answer may be tagged by less than
// all the company's compositions (conditional.go).
func (e *Env) Authenticated(r chi.Router, allowBare bool, onError func(http.ResponseWriter, *http.Request, error), narrow func(*http.Request) Narrow, routes func(r chi.Router)) {
	r.Group(func(r chi.Router) {
		r.Use(e.Authenticate(allowBare, onError, narrow))
		r.Use(e.Conditional()) // ETag, If-None-Match, response cache (conditional.go)
		routes(r)
	})
}

// Authenticate is middleware that requires an access token in the
// Authorization header: "Bearer <token>", or, when allowBare is set (v1), the
// bare token. A request without a valid token goes to onError with an
// EUNAUTHORIZED error; onError answers and logs it.
//
// The middleware of a chi group runs once the route is matched, so narrow
// (nil: none) may read the route's parameters.
func (e *Env) Authenticate(allowBare bool, onError func(http.ResponseWriter, *http.Request, error), narrow func(*http.Request) Narrow) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := strings.TrimSpace(r.Header.Get("Authorization"))
			var tok string
			switch {
			case h == "":
				onError(w, r, domain.Errorf(domain.EUNAUTHORIZED, "the Authorization header is missing"))
				return
			case len(h) > 7 && strings.EqualFold(h[:7], "bearer "):
				tok = strings.TrimSpace(h[7:])
			case allowBare && !strings.Contains(h, " "):
				tok = h
			default:
				onError(w, r, domain.Errorf(domain.EUNAUTHORIZED, "the Authorization header must be \"Bearer <token>\""))
				return
			}
			// A GET is tagged with its company's write generation
			// (Conditional): read it with the user, in one transaction.
			var p domain.Principal
			var g storecache.Generation
			var nw Narrow
			var err error
			if e.Speed != nil {
				if r.Method == http.MethodGet && narrow != nil {
					nw = narrow(r)
				}
				p, g, err = e.Speed.Authorize(r.Context(), e.App, tok, nw.Composition)
			} else {
				p, err = e.App.Authorize(r.Context(), tok)
			}
			if err != nil {
				onError(w, r, err) // onError logs it
				return
			}
			if ri := RequestInfoFrom(r.Context()); ri != nil {
				ri.CompanyID = p.CompanyID
			}
			ctx := WithPrincipal(r.Context(), p)
			if r.Method == http.MethodGet && e.Speed != nil {
				ctx = context.WithValue(ctx, generationKey, g)
				ctx = context.WithValue(ctx, narrowKey, nw)
			}
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// LimitBody is middleware that caps request bodies at n bytes.
func LimitBody(n int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.ContentLength > n {
				// Known too large: still read through MaxBytesReader so the
				// handler answers in its own error format.
				r.Body = http.MaxBytesReader(w, r.Body, n)
			} else if r.Body != nil {
				r.Body = http.MaxBytesReader(w, r.Body, n)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// RequireJSON is middleware that refuses, with an EUNSUPPORTED error written
// by onError, a request body sent in a media type other than JSON
// (application/json, application/vnd.api+json or any other +json type). A
// body sent with no Content-Type at all is read as JSON, as older v1 clients
// send it.
func RequireJSON(onError func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ct := r.Header.Get("Content-Type")
			if ct != "" && r.ContentLength != 0 && !isJSONMediaType(ct) {
				onError(w, r, domain.Errorf(EUNSUPPORTED, "the request body must be JSON (Content-Type: application/json), not %s", ct))
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

type routePathKey struct{}

// RememberRoutePath is middleware that keeps the request's path as the
// router it is installed on sees it, for AllowedMethods: nested sub-routers
// see only the rest of the path.
func RememberRoutePath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if rctx := chi.RouteContext(r.Context()); rctx != nil && rctx.RoutePath != "" {
			path = rctx.RoutePath
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), routePathKey{}, path)))
	})
}

// RoutePath returns the path RememberRoutePath kept, or the URL path.
func RoutePath(r *http.Request) string {
	if p, ok := r.Context().Value(routePathKey{}).(string); ok {
		return p
	}
	return r.URL.Path
}

// AllowedMethods lists the methods routes answers for path, for the Allow
// header of a 405 answer.
func AllowedMethods(routes chi.Routes, path string) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if routes.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}

// Recoverer is middleware that turns a panic in a handler into a 500 answer
// written by onPanic, logs it, and keeps the server serving.
func (e *Env) Recoverer(onPanic func(http.ResponseWriter, *http.Request, error)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					if e.Log != nil {
						e.Log.Error("panic in handler", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v))
					}
					onPanic(w, r, fmt.Errorf("panic: %v", v))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// Login authenticates an e-mail and secret token for either generation,
// slowing repeated failures per account and client address and per client
// address (AuthLimiter).
func (e *Env) Login(r *http.Request, email, secret string) (*app.Session, error) {
	account, addr := domain.NormalizeEmail(email), e.ClientAddr(r)
	if err := e.Limiter.Allow(account, addr); err != nil {
		return nil, err
	}
	s, err := e.App.Authenticate(r.Context(), email, secret)
	switch {
	case domain.ErrorCode(err) == domain.EUNAUTHORIZED:
		e.Limiter.Fail(account, addr)
	case err == nil:
		e.Limiter.Succeed(account, addr)
	}
	return s, err
}

// clientAddr is the host part of the connection's peer address.
func clientAddr(r *http.Request) string {
	addr := r.RemoteAddr
	if i := strings.LastIndexByte(addr, ':'); i > 0 {
		addr = addr[:i]
	}
	return addr
}

// NumOrNull is Num, or nil (JSON null) for an amount that could not be
// priced: a missing price is never written as 0.
func NumOrNull(d decimal.Decimal, missing bool) *json.Number {
	if missing {
		return nil
	}
	n := Num(d)
	return &n
}

// MissingItem is one entry of a composition's `missing` list (both
// generations): an item without a price, named as the composition's items
// are, and why.
type MissingItem struct {
	Banco      string `json:"banco"`
	Code       string `json:"code"`
	IsResource bool   `json:"is_resource"`
	Reason     string `json:"reason"`
	Field      string `json:"field,omitempty"` // a field of the composition itself it needs before it has a unit cost
}

// MissingItems maps a priced read's missing list; nil when nothing is missing.
func MissingItems(ms []domain.MissingPrice) []MissingItem {
	if len(ms) == 0 {
		return nil
	}
	out := make([]MissingItem, len(ms))
	for i, m := range ms {
		out[i] = MissingItem{Banco: m.Bank, Code: m.Code, IsResource: m.Kind == domain.KindResource, Reason: m.Reason, Field: m.Field}
	}
	return out
}

// MissingLine is one entry of a budget's or a budget report's `missing`
// list: the line (node id and number; none in the ABC curve, whose rows are
// not lines), what lacks a price and why.
type MissingLine struct {
	NodeID string `json:"node_id,omitempty"`
	Number string `json:"number,omitempty"`
	Bank   string `json:"bank"`
	Code   string `json:"code"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

// MissingLines maps a budget's missing list; nil when nothing is missing.
func MissingLines(ms []domain.BudgetMissing) []MissingLine {
	if len(ms) == 0 {
		return nil
	}
	out := make([]MissingLine, len(ms))
	for i, m := range ms {
		out[i] = MissingLine{NodeID: m.NodeID, Number: m.Number, Bank: m.Bank, Code: m.Code, Kind: string(m.Kind), Reason: m.Reason}
	}
	return out
}

// MissingRows maps an ABC curve's missing list; nil when nothing is missing.
func MissingRows(ms []domain.MissingPrice) []MissingLine {
	if len(ms) == 0 {
		return nil
	}
	out := make([]MissingLine, len(ms))
	for i, m := range ms {
		out[i] = MissingLine{Bank: m.Bank, Code: m.Code, Kind: string(m.Kind), Reason: m.Reason}
	}
	return out
}
