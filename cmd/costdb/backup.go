package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/costdb/costdb/adapters/boltstore"
)

// backupTo writes a backup through op into path (mode 0600) and verifies
// it: written beside it, synced, checked, then renamed into place, so path
// holds either a good backup or nothing new.
func backupTo(ctx context.Context, op operator, path string) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return 0, err
	}
	n, err := op.Backup(ctx, tmp)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if err := boltstore.Verify(tmp.Name()); err != nil {
		return 0, fmt.Errorf("the backup fails its check: %w", err)
	}
	return n, os.Rename(tmp.Name(), path)
}

// runBackup runs "costdb backup --db PATH --out FILE".
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("costdb backup", stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file")
	out := fs.String("out", "", "file to write the backup to (required)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		fmt.Fprintln(stderr, "costdb backup: --out is required")
		fs.Usage()
		return errUsage
	}
	if isDatabaseURL(*db) {
		return fmt.Errorf("back PostgreSQL up with pg_dump (see docs/operations.md)")
	}
	op, err := connect(ctx, connectOptions{DB: *db})
	if err != nil {
		return err
	}
	defer op.Close()
	n, err := backupTo(ctx, op, *out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backup of %s written to %s (%d bytes) and verified\n", *db, *out, n)
	return nil
}

// runRestore runs "costdb restore --from FILE --db PATH [--force]".
func runRestore(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("costdb restore", stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file to restore into")
	from := fs.String("from", "", "backup file to restore (required)")
	force := fs.Bool("force", false, "replace an existing database (never one a running server holds)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *from == "" {
		fmt.Fprintln(stderr, "costdb restore: --from is required")
		fs.Usage()
		return errUsage
	}
	if isDatabaseURL(*db) {
		return fmt.Errorf("restore PostgreSQL with pg_restore (see docs/operations.md)")
	}
	if c, err := dialAdmin(context.Background(), adminFilePath(*db)); err != nil {
		return err
	} else if c != nil {
		return fmt.Errorf("a costdb server holds %s: stop it before restoring", *db)
	}
	if err := boltstore.Restore(*from, *db, *force); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s restored from %s\n", *db, *from)
	return nil
}
