package pgstore

import (
	"context"
	"encoding/binary"

	"github.com/jackc/pgx/v5"
)

// A prepared write's stamp check goes with its put (issue 29, P6 on
// PostgreSQL). A prepared write (app/storecache/prepared.go) asks whether
// the composition it read still has the stamp it read
// (CompositionStamped), and then puts it: two round trips, the second
// waiting for the first only to learn what is almost always "yes". In a
// write transaction the store therefore answers "yes" at once and queues
// a statement that fails unless the stamp is the one given (lazyTx.later),
// sent with the put (or whatever statement comes next, or the COMMIT). When
// the guess was wrong, that statement fails, the statements after it in
// the pipeline are not run, and the transaction (or, in a group, the fn's
// savepoint) is rolled back and the fn runs again, this time with the
// stamp read before it is answered: what committed is always what the fn
// does with the true answer. The row's company, which a stamp read notes
// for the one-round-trip put (writetrips.go), is then unknown: the put
// finds it with the row it replaces, and takes its general path when it is
// another company's.

// anyCompany marks a record known to the transaction only by a guess: its
// company was not read (replaceKnown checks it).
const anyCompany = "\x00any"

// stampCheckSQL fails (division by zero) unless the composition $1 has
// the stamp $2. The divisor is a row count, never folded at planning.
const stampCheckSQL = `SELECT 1 / (SELECT count(*) FROM compositions WHERE id = $1 AND stamp = $2)::int`

// guessStamped answers CompositionStamped(id, stamp) with "yes" and
// queues its check, when the transaction may guess: ok says whether it
// did.
func (t *tx) guessStamped(id string, stamp []byte) (ok bool) {
	if !t.guess || !t.writable || t.held != nil || len(stamp) != 8 {
		return false
	}
	if _, own := t.stamps[id]; own {
		return false // put by this transaction: known without a statement
	}
	lt, isLazy := t.ptx.(*lazyTx)
	if !isLazy {
		return false
	}
	q := &pgx.QueuedQuery{SQL: stampCheckSQL, Arguments: []any{id, int64(binary.BigEndian.Uint64(stamp))}}
	lt.pending = append(lt.pending, q)
	if lt.checks == nil {
		lt.checks = map[*pgx.QueuedQuery]int{}
	}
	lt.checks[q] = lt.fn
	t.noteChecked(id, int64(binary.BigEndian.Uint64(stamp)))
	if _, known := t.known[knownKey{"compositions", id}]; !known {
		t.noteKnown("compositions", id, anyCompany)
	}
	return true
}

// misguessed reports whether a guess of the transaction on lt was wrong,
// and forgets it.
func (lt *lazyTx) misguessed() bool {
	if !lt.checkFailed {
		return false
	}
	lt.checkFailed, lt.pendingErr = false, nil
	return true
}

// checkGuesses sends the checks of guesses still pending, before the
// transaction's answer counts: a failure may come from a wrong guess. A
// transaction a statement of which has failed refuses them: its guesses
// count as wrong, and the fn runs again without guessing.
func (lt *lazyTx) checkGuesses(ctx context.Context) error {
	if len(lt.checks) == 0 {
		return nil
	}
	if lt.sent && lt.conn.Conn().PgConn().TxStatus() == 'E' {
		// Unless what failed was pending before them (not the fn's).
		// (Those are the running fn's: an earlier fn's checks were sent
		// with the statement that failed, or before it.)
		lt.checkFailed, lt.failedFn = lt.pendingErr == nil, lt.fn
		return nil
	}
	return lt.flush(ctx)
}
