package main

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/adapters/bankfiles/workbooktest"
	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/pgstore/pgtest"
	"github.com/costdb/costdb/app"
)

// dbEditions is what a database holds, as the import tests compare it: its
// editions with their counts, regimes, source and import time (any write
// of an import changes one of them).
func dbEditions(t *testing.T, db string) string {
	t.Helper()
	st, err := openStore(context.Background(), db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eds, _, err := app.New(st, nil, app.Config{}).Editions(context.Background(), app.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(eds)
	return string(b)
}

// workbookEditions reads the real workbook of the tests and returns its
// editions as the import commands send them.
func workbookEditions(t *testing.T) []app.EditionData {
	t.Helper()
	wf, err := bankfiles.OpenSinapiWorkbook(realWorkbook(t, t.TempDir(), nil))
	if err != nil {
		t.Fatal(err)
	}
	defer wf.Close()
	wb, err := wf.Read(context.Background(), bankfiles.WorkbookOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eds, _ := wb.Editions()
	data := make([]app.EditionData, len(eds))
	for i, e := range eds {
		data[i] = app.EditionData{Edition: e.Edition, Resources: e.Resources, Compositions: e.Compositions, Replace: true}
	}
	return data
}

// TestImportStoppedLeavesDatabaseUnchanged: an import whose context is
// cancelled (SIGTERM or SIGINT in the command, a client gone at the admin
// listener) while it writes its first edition or its last,
// leaves the database as it was, on bbolt and on PostgreSQL.
func TestImportStoppedLeavesDatabaseUnchanged(t *testing.T) {
	data := workbookEditions(t)
	if len(data) < 2 {
		t.Fatalf("the workbook gives %d editions, want several", len(data))
	}
	engines := map[string]func(t *testing.T) string{
		"bbolt":      func(t *testing.T) string { return filepath.Join(t.TempDir(), "c.db") },
		"postgresql": func(t *testing.T) string { return pgtest.NewDatabase(t) },
	}
	for engine, newDB := range engines {
		for _, stopAt := range []int{0, len(data) - 1} {
			t.Run(fmt.Sprintf("%s/stop_at_%d", engine, stopAt), func(t *testing.T) {
				db := newDB(t)
				if code, _, stderr := cli(t, "import", "sample", "--db", db); code != 0 {
					t.Fatalf("import sample: %s", stderr)
				}
				before := dbEditions(t, db)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				op, err := connect(ctx, connectOptions{DB: db})
				if err != nil {
					t.Fatal(err)
				}
				asked := 0
				_, err = op.Import(ctx, len(data), func(i int) (*app.EditionData, error) {
					asked++
					if i == stopAt {
						cancel() // the signal arrives while edition i is written
					}
					return &data[i], nil
				})
				op.Close()
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("stopped at edition %d of %d: error %v, want context.Canceled", stopAt, len(data), err)
				}
				if asked != stopAt+1 {
					t.Errorf("editions asked for after the stop: %d, want %d", asked, stopAt+1)
				}
				if after := dbEditions(t, db); after != before {
					t.Errorf("stopped at edition %d: the database changed\nbefore %s\nafter  %s", stopAt, before, after)
				}
				// The same import, not stopped, writes.
				op, err = connect(context.Background(), connectOptions{DB: db})
				if err != nil {
					t.Fatal(err)
				}
				_, err = importAll(context.Background(), op, data)
				op.Close()
				if err != nil {
					t.Fatal(err)
				}
				if after := dbEditions(t, db); after == before {
					t.Error("the import that was not stopped changed nothing")
				}
			})
		}
	}
}

// TestImportClientGoneAtAdminListener: the command's connection to the
// running server ends half-way (the command was stopped): the server's
// import stops and writes nothing.
func TestImportClientGoneAtAdminListener(t *testing.T) {
	data := workbookEditions(t)
	db := filepath.Join(t.TempDir(), "c.db")
	m, _ := startServer(t, db, nil)
	c, err := dialAdmin(context.Background(), adminFilePath(db))
	if err != nil || c == nil {
		t.Fatalf("dialAdmin: %v %v", c, err)
	}
	count := func() int {
		var n int
		if err := m.store.View(context.Background(), func(tx app.Tx) error {
			eds, err := tx.Editions()
			n = len(eds)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err = c.Import(ctx, len(data), func(i int) (*app.EditionData, error) {
		if i == 1 {
			cancel() // the command stops: its request ends
			<-ctx.Done()
		}
		return &data[i], nil
	})
	if err == nil {
		t.Fatal("an import whose client left succeeded")
	}
	// The server's import has ended (its write transaction rolled back)
	// once the next write goes through.
	if _, err := importAll(context.Background(), c, data[:1]); err != nil {
		t.Fatal(err)
	}
	if n := count(); n != 1 {
		t.Errorf("editions after the stopped import and one more: %d, want 1", n)
	}
}

// TestImportSIGTERM runs the built binary on a generated national workbook
// (27 states, 1,500 records each) and sends it SIGTERM while it reads the
// workbook, and while it writes the editions: it exits 1 saying nothing was
// written, and the database holds what it held, on bbolt and PostgreSQL.
func TestImportSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("generates and imports a large workbook")
	}
	bin := builtBinary(t)
	book := filepath.Join(t.TempDir(), "SINAPI_Referência_2026_08.xlsx")
	f, err := os.Create(book)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := workbooktest.Write(w, workbooktest.Synthetic(500, 1000, 3)); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	engines := map[string]func(t *testing.T) string{
		"bbolt":      func(t *testing.T) string { return filepath.Join(t.TempDir(), "c.db") },
		"postgresql": func(t *testing.T) string { return pgtest.NewDatabase(t) },
	}
	for engine, newDB := range engines {
		for _, when := range []string{"reading ", "writing "} {
			t.Run(engine+"/"+strings.TrimSpace(when), func(t *testing.T) {
				db := newDB(t)
				if code, _, stderr := cli(t, "import", "sample", "--db", db); code != 0 {
					t.Fatalf("import sample: %s", stderr)
				}
				before := dbEditions(t, db)
				cmd := exec.Command(bin, "import", "sinapi", "--db", db, book)
				stderr, err := cmd.StderrPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				var said strings.Builder
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					said.WriteString(sc.Text() + "\n")
					if strings.HasPrefix(sc.Text(), when) {
						if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
							t.Fatal(err)
						}
						break
					}
				}
				for sc.Scan() {
					said.WriteString(sc.Text() + "\n")
				}
				err = cmd.Wait()
				if err == nil {
					t.Skipf("the import ended before SIGTERM arrived:\n%s", said.String())
				}
				if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(said.String(), "nothing was written") {
					t.Errorf("SIGTERM while %s: exit %d, stderr:\n%s", strings.TrimSpace(when), code, said.String())
				}
				if after := dbEditions(t, db); after != before {
					t.Errorf("SIGTERM while %s: the database changed\nbefore %s\nafter  %s", strings.TrimSpace(when), before, after)
				}
			})
		}
	}
}

// TestImportCapExitStatus: a zip bomb given to the command (a national
// workbook, a SICRO report) stops it with exit status 1 and a message
// naming the file and the cap, before the database is created.
func TestImportCapExitStatus(t *testing.T) {
	dir := t.TempDir()
	bomb := func(name string, parts ...string) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(f)
		for _, p := range parts {
			w, _ := zw.Create(p)
			if _, err := io.CopyN(w, zeroReader{}, 64<<20); err != nil {
				t.Fatal(err)
			}
		}
		zw.Close()
		f.Close()
		return path
	}
	book := bomb("SINAPI_Referência_2026_08.xlsx", "xl/workbook.xml", "xl/worksheets/sheet1.xml")
	report := bomb("SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx", "xl/worksheets/sheet1.xml")
	for _, args := range [][]string{
		{"import", "sinapi", book},
		{"import", "sicro", "--state", "AL", "--month", "01/2024", report},
	} {
		db := filepath.Join(dir, "c.db")
		code, _, stderr := cli(t, append(args, "--db", db)...)
		file := args[len(args)-1]
		if code != 1 || !strings.Contains(stderr, file) || !strings.Contains(stderr, bankfiles.CapRatio) {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming %s and the cap %q", args, code, stderr, file, bankfiles.CapRatio)
		}
		if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: the database was created (%v)", args, err)
		}
	}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
