package pgstore

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/costdb/costdb/domain"
)

// Messages of the faults, as the client reads them.
const (
	msgFull        = "the server cannot store anything more: the disk of its database is full; nothing was written"
	msgUnavailable = "the database cannot be reached, or is starting or shutting down; try again shortly"
)

// fault is what an error of the database server or of the connection
// means for the client, or nil when it is neither a full disk nor a server
// that cannot answer now:
//
//   - ESTORAGEFULL: SQLSTATE 53100 (disk_full).
//   - EUNAVAILABLE: the server is shutting down or starting (57P01
//     admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), a
//     connection exception (class 08), other insufficient resources (class
//     53: out of memory, too many connections, a configuration limit),
//     and, without an answer from the server, a connection refused, reset
//     or lost (pgconn's connect errors, a closed connection, network
//     errors, an unexpected end of the stream).
//
// A cancelled or timed-out request is not a fault of the database: those
// errors, and errors that already carry a domain code, give nil. The
// server's or the network's own error stays in the chain, for the log.
func fault(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	var de *domain.Error
	if errors.As(err, &de) {
		return nil
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "53100":
			return &faultError{domain.Errorf(domain.ESTORAGEFULL, msgFull), err}
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03",
			strings.HasPrefix(pe.Code, "08"), strings.HasPrefix(pe.Code, "53"):
			return &faultError{domain.Errorf(domain.EUNAVAILABLE, msgUnavailable), err}
		}
		return nil
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	if errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, pgconn.ErrConnClosed) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return &faultError{domain.Errorf(domain.EUNAVAILABLE, msgUnavailable), err}
	}
	return nil
}

// orFault is fault(err) when err is a fault, else err.
func orFault(err error) error {
	if f := fault(err); f != nil {
		return f
	}
	return err
}

// faultError is a domain error (what the client reads) over the error of
// the server or the connection (what the log says).
type faultError struct {
	domain *domain.Error
	cause  error
}

func (e *faultError) Error() string   { return e.domain.Message + " (pgstore: " + e.cause.Error() + ")" }
func (e *faultError) Unwrap() []error { return []error{e.domain, e.cause} }
