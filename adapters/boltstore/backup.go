package boltstore

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/costdb/costdb/domain"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// WriteTo writes a consistent copy of the whole database to w from one read
// transaction: writers go on meanwhile, and the copy holds exactly what was
// committed when it started.
func (s *Store) WriteTo(ctx context.Context, w io.Writer) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var n int64
	err := s.db.View(func(btx *bolt.Tx) error {
		var err error
		n, err = btx.WriteTo(w)
		return err
	})
	return n, err
}

// Verify checks that the file at path is a whole costdb database: bbolt's
// consistency check passes, it has a schema version this costdb reads, and
// every bucket is there. It opens the file read-only.
func Verify(path string) error {
	if err := checkFileSize(path); err != nil {
		return err
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return fmt.Errorf("%s is being written by another process", path)
		}
		return fmt.Errorf("%s is not a bbolt database: %w", path, err)
	}
	defer db.Close()
	return db.View(func(btx *bolt.Tx) error {
		var bad error
		for err := range btx.Check() { // drained to its end, which stops the checker
			if bad == nil {
				bad = fmt.Errorf("%s fails the consistency check: %v", path, err)
			}
		}
		if bad != nil {
			return bad
		}
		meta := btx.Bucket(bucketMeta)
		if meta == nil {
			return fmt.Errorf("%s is not a costdb database (it has no meta bucket)", path)
		}
		v, err := strconv.Atoi(string(meta.Get(keySchemaVersion)))
		if err != nil || v < 1 {
			return fmt.Errorf("%s has a bad schema version", path)
		}
		if v > SchemaVersion {
			return fmt.Errorf("%s has schema version %d, newer than this costdb's %d: %w", path, v, SchemaVersion, ErrNewerSchema)
		}
		if v == SchemaVersion {
			for _, name := range allBuckets {
				if btx.Bucket(name) == nil {
					return fmt.Errorf("%s lacks the bucket %s", path, name)
				}
			}
		}
		return nil
	})
}

// Restore replaces the database at to with a copy of the backup at from,
// after checking the backup (Verify). An existing database is replaced only
// when replace is set, and never while another process (a server) holds
// it: Restore takes its lock first and fails with EUNAVAILABLE when it
// cannot. The copy is written beside it and renamed into place, so a
// failure leaves the old database as it was.
func Restore(from, to string, replace bool) error {
	if err := Verify(from); err != nil {
		return fmt.Errorf("refusing to restore: %w", err)
	}
	if _, err := os.Stat(to); err == nil {
		if !replace {
			return domain.Errorf(domain.ECONFLICT, "%s exists: give --force to replace it", to)
		}
		held, err := bolt.Open(to, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			if errors.Is(err, bolterrors.ErrTimeout) {
				return domain.Errorf(domain.EUNAVAILABLE, "%s is in use by another process (is a costdb server running?); stop it first", to)
			}
			return fmt.Errorf("open %s: %w", to, err)
		}
		defer held.Close()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	tmp, err := os.CreateTemp(filepath.Dir(to), "."+filepath.Base(to)+".restore*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := io.Copy(tmp, src); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := Verify(tmp.Name()); err != nil {
		return fmt.Errorf("the copy fails the check: %w", err)
	}
	if replace {
		return os.Rename(tmp.Name(), to)
	}
	return os.Link(tmp.Name(), to)
}

// bbolt's file header: two meta pages, each a 16-byte page header then the
// meta (magic, version, page size, flags, root bucket, freelist page, high
// water mark, txid, checksum over what precedes it).
const (
	boltMagic       = 0xED0CDAED
	pageHeaderSize  = 16
	metaChecksumEnd = 56 // the meta's bytes the checksum covers; it follows them
)

// checkFileSize refuses a file that is not a bbolt database, or shorter
// than its own header says: bbolt maps the file in memory, and reading a
// page past its end would crash the process, not fail.
func checkFileSize(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	var best struct {
		ok                   bool
		txid, pgid, pageSize uint64
	}
	readMeta := func(off int64) {
		b := make([]byte, pageHeaderSize+metaChecksumEnd+8)
		if _, err := f.ReadAt(b, off); err != nil {
			return
		}
		m := b[pageHeaderSize:]
		if binary.LittleEndian.Uint32(m[0:4]) != boltMagic {
			return
		}
		h := fnv.New64a()
		_, _ = h.Write(m[:metaChecksumEnd])
		if h.Sum64() != binary.LittleEndian.Uint64(m[metaChecksumEnd:]) {
			return
		}
		pageSize := uint64(binary.LittleEndian.Uint32(m[8:12]))
		pgid, txid := binary.LittleEndian.Uint64(m[40:48]), binary.LittleEndian.Uint64(m[48:56])
		if !best.ok || txid > best.txid {
			best.ok, best.txid, best.pgid, best.pageSize = true, txid, pgid, pageSize
		}
	}
	readMeta(0)
	if best.ok {
		readMeta(int64(best.pageSize))
	} else {
		for _, ps := range []int64{4096, 8192, 16384, 65536} {
			readMeta(ps)
		}
	}
	if !best.ok || best.pageSize < 512 || best.pageSize > 1<<20 {
		return fmt.Errorf("%s is not a bbolt database (no valid meta page)", path)
	}
	if need := best.pgid * best.pageSize; uint64(size) < need {
		return fmt.Errorf("%s is truncated: %d bytes, its header needs %d", path, size, need)
	}
	return nil
}
