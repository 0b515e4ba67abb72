package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"
)

// Observability is what the access log and the metrics need; an Env without
// it logs and counts nothing.
type Observability struct {
	// AccessLog receives one line per request.
	AccessLog *slog.Logger
	// ObserveRequest, when set, is told of every request once answered.
	ObserveRequest func(method, route string, status int, d time.Duration)
	// Ready, when set, is checked by /readyz besides the store (e.g.
	// draining on shutdown, migrations pending).
	Ready func(context.Context) error
}

// RequestInfo is what the access log learns about a request while it is
// being served: the middleware puts one in the context, the authentication
// middleware fills in the company.
type RequestInfo struct {
	ID        string
	CompanyID string
}

type requestInfoKey struct{}

// WithRequestInfo returns ctx carrying ri.
func WithRequestInfo(ctx context.Context, ri *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, ri)
}

// RequestInfoFrom returns the request's info, or nil outside the access log.
func RequestInfoFrom(ctx context.Context) *RequestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*RequestInfo)
	return ri
}

// RequestID returns the id a client gave in X-Request-Id when it is valid
// (1 to 128 characters among letters, digits and "-_.:"), or a new random
// one.
func RequestID(given string) string {
	if validRequestID(given) {
		return given
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func validRequestID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.', c == ':':
		default:
			return false
		}
	}
	return true
}
