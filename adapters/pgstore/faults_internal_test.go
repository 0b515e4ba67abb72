package pgstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/costdb/costdb/domain"
)

// TestFaultCodes holds the mapping of the server's and the connection's
// errors to what the client is told: a full disk is ESTORAGEFULL (507), a
// server shutting down, starting or gone is EUNAVAILABLE (503), and
// everything else keeps its own answer.
func TestFaultCodes(t *testing.T) {
	pg := func(code string) error { return &pgconn.PgError{Severity: "ERROR", Code: code, Message: "m " + code} }
	for _, tt := range []struct {
		name string
		err  error
		want string // "" when fault must give nil
	}{
		{"disk_full", pg("53100"), domain.ESTORAGEFULL},
		{"disk_full wrapped", fmt.Errorf("insert: %w", pg("53100")), domain.ESTORAGEFULL},
		{"insufficient_resources", pg("53000"), domain.EUNAVAILABLE},
		{"out_of_memory", pg("53200"), domain.EUNAVAILABLE},
		{"too_many_connections", pg("53300"), domain.EUNAVAILABLE},
		{"admin_shutdown", pg("57P01"), domain.EUNAVAILABLE},
		{"crash_shutdown", pg("57P02"), domain.EUNAVAILABLE},
		{"cannot_connect_now (starting up)", pg("57P03"), domain.EUNAVAILABLE},
		{"connection_failure", pg("08006"), domain.EUNAVAILABLE},
		{"connection refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, domain.EUNAVAILABLE},
		{"connection reset", fmt.Errorf("read: %w", syscall.ECONNRESET), domain.EUNAVAILABLE},
		{"stream cut", fmt.Errorf("failed to receive message: %w", io.ErrUnexpectedEOF), domain.EUNAVAILABLE},
		{"conn closed", fmt.Errorf("begin: %w", pgconn.ErrConnClosed), domain.EUNAVAILABLE},
		{"unique_violation", pg("23505"), ""},
		{"undefined_table", pg("42P01"), ""},
		{"serialization_failure", pg("40001"), ""},
		{"query_canceled by the client", fmt.Errorf("x: %w", context.Canceled), ""},
		{"deadline", context.DeadlineExceeded, ""},
		{"a program's error", errors.New("pgstore: transaction used after it ended"), ""},
		{"a domain error", domain.Errorf(domain.ENOTFOUND, "no such record"), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := fault(tt.err)
			if tt.want == "" {
				if got != nil {
					t.Fatalf("fault(%v) = %v, want nil", tt.err, got)
				}
				return
			}
			if code := domain.ErrorCode(got); code != tt.want {
				t.Fatalf("fault(%v): code %q, want %q", tt.err, code, tt.want)
			}
			if !strings.Contains(got.Error(), tt.err.Error()) {
				t.Errorf("the error %q does not keep the cause %q for the log", got, tt.err)
			}
			if msg := domain.ErrorMessage(got); strings.Contains(msg, tt.err.Error()) {
				t.Errorf("the client's message %q shows the cause", msg)
			}
			// A statement failing with it (tx.fail) answers the same.
			var tx tx
			if code := domain.ErrorCode(tx.fail(tt.err)); code != tt.want {
				t.Errorf("tx.fail: code %q, want %q", code, tt.want)
			}
		})
	}
	if msg := domain.ErrorMessage(fault(pg("53100"))); !strings.Contains(msg, "cannot store") {
		t.Errorf("disk full message %q: want one saying the server cannot store", msg)
	}
}
