package boltstore

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// TestDiskFullIsStorageFull makes commits fail as on a full disk (bbolt's
// Commit rolls back and returns the write's *fs.PathError wrapping ENOSPC)
// and checks the answer: ESTORAGEFULL with a message saying the server
// cannot store, nothing written, Ping failing with it; then a commit that
// succeeds makes Ping answer again. The real thing, on a full tmpfs, is
// cmd/costdb's TestDiskFullOnBolt.
func TestDiskFullIsStorageFull(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	put := func(k string) error {
		return s.Update(ctx, func(tx app.Tx) error { return tx.PutSetting(k, []byte("v")) })
	}
	for _, cause := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT} {
		commitTx = func(btx *bolt.Tx) error {
			_ = btx.Rollback()
			return &fs.PathError{Op: "write", Path: s.Path(), Err: cause}
		}
		err := put("k-" + cause.Error())
		commitTx = (*bolt.Tx).Commit
		if got := domain.ErrorCode(err); got != domain.ESTORAGEFULL {
			t.Fatalf("%v: code %q (%v), want %q", cause, got, err, domain.ESTORAGEFULL)
		}
		if msg := domain.ErrorMessage(err); !strings.Contains(msg, "cannot store") || strings.Contains(msg, s.Path()) {
			t.Errorf("%v: message %q: want one saying the server cannot store, without the file's path", cause, msg)
		}
		if !strings.Contains(err.Error(), cause.Error()) {
			t.Errorf("%v: the error %q does not keep the system's for the log", cause, err)
		}
		if err := s.Ping(ctx); domain.ErrorCode(err) != domain.ESTORAGEFULL {
			t.Fatalf("%v: Ping after the failed commit: %v, want ESTORAGEFULL", cause, err)
		}
		var v []byte
		if err := s.View(ctx, func(tx app.Tx) (err error) { v, err = tx.Setting("k-" + cause.Error()); return err }); err != nil || v != nil {
			t.Fatalf("%v: the failed write is there: %q, %v", cause, v, err)
		}
		// A refused write (not a commit) leaves the fault as it is.
		if err := s.Update(ctx, func(app.Tx) error { return domain.Errorf(domain.EINVALID, "no") }); domain.ErrorCode(err) != domain.EINVALID {
			t.Fatal(err)
		}
		if err := s.Ping(ctx); domain.ErrorCode(err) != domain.ESTORAGEFULL {
			t.Fatalf("%v: Ping after a refused write: %v, want ESTORAGEFULL still", cause, err)
		}
		if err := put("after"); err != nil {
			t.Fatalf("%v: write once the disk has room: %v", cause, err)
		}
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("%v: Ping after a write succeeded: %v, want nil", cause, err)
		}
	}
	// Any other failed commit is a fault of its own (500), not a full disk.
	commitTx = func(btx *bolt.Tx) error {
		_ = btx.Rollback()
		return &fs.PathError{Op: "write", Path: s.Path(), Err: syscall.EIO}
	}
	err := put("eio")
	commitTx = (*bolt.Tx).Commit
	if got := domain.ErrorCode(err); got != domain.EINTERNAL {
		t.Errorf("EIO: code %q, want %q", got, domain.EINTERNAL)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping after an EIO: %v, want nil (readiness is about storing room)", err)
	}
}
