package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// statesDir writes PE's real files and copies of them named for BA (the
// files state their state only in their names) into a directory: two
// states' reports. bad, when not nil, changes PE's não desonerado file.
func statesDir(t *testing.T, bad func([]byte) []byte) string {
	t.Helper()
	dir := t.TempDir()
	// What a directory argument leaves out: hidden files, Excel's lock
	// files and subdirectories.
	for _, name := range []string{".DS_Store", "~$SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range pe {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(f)
		ba := strings.Replace(base, "_PE_", "_BA_", 1)
		if err := os.WriteFile(filepath.Join(dir, ba), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if bad != nil && strings.Contains(base, "NaoDesonerado") {
			data = bad(data)
		}
		if err := os.WriteFile(filepath.Join(dir, base), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// --state all imports every state's files of a directory in one import:
// an edition per state, a line per state on stderr, a summary on stdout.
func TestImportSinapiStates(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	dir := statesDir(t, nil)
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, "--state", "all", "--month", "10/2024", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"writing 2 states in one transaction: BA, PE\n",
		"SINAPI BA: 3 files, 20285 rows read\n",
		"SINAPI PE: 3 files, 20285 rows read\n",
		"written in ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the progress does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Index(stderr, "SINAPI BA:") > strings.Index(stderr, "SINAPI PE:") {
		t.Errorf("the states are not read in order:\n%s", stderr)
	}
	for _, want := range []string{
		"SINAPI BA 10/2024: 3 files, 20285 rows; edition now: 4811 resources, 7737 compositions (0 with structure); regimes nao-desonerado, desonerado\n",
		"SINAPI PE 10/2024: 3 files, 20285 rows; edition now: 4811 resources, 7737 compositions (0 with structure); regimes nao-desonerado, desonerado\n",
		"imported SINAPI 10/2024: 2 editions (BA, PE) in one transaction\n",
		"took ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	eds := editions(t, db)
	if len(eds) != 2 || eds[0].Key() != "SINAPI/BA/2024-10/" || eds[1].Key() != "SINAPI/PE/2024-10/" {
		t.Fatalf("editions = %+v", eds)
	}
	for _, e := range eds {
		if e.Resources != 4811 || e.Compositions != 7737 || len(e.Regimes) != 2 {
			t.Errorf("edition %s: %+v", e.Key(), *e)
		}
	}

	// The same edition as importing the state alone.
	one := filepath.Join(t.TempDir(), "one.db")
	if code, _, stderr := cli(t, append([]string{"import", "sinapi", "--db", one, "--state", "PE", "--month", "10/2024"}, pe...)...); code != 0 {
		t.Fatalf("PE alone: exit %d: %s", code, stderr)
	}
	alone := editions(t, one)[0]
	got := *eds[1]
	got.ImportedAt, got.Source = alone.ImportedAt, alone.Source
	if got.Key() != alone.Key() || got.Resources != alone.Resources || got.Compositions != alone.Compositions ||
		got.Structures != alone.Structures || len(got.Regimes) != len(alone.Regimes) {
		t.Errorf("PE among two states = %+v, alone = %+v", got, *alone)
	}

	// A list of states takes the listed ones' files; the files are named
	// one by one or by their directory.
	listed := filepath.Join(t.TempDir(), "l.db")
	files, _ := filepath.Glob(filepath.Join(dir, "*_BA_*"))
	if code, out, stderr := cli(t, append([]string{"import", "sinapi", "--db", listed, "--state", "ba,PE", "--month", "10/2024", filepath.Join(dir, "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv")}, files...)...); code != 0 ||
		!strings.Contains(out, "imported SINAPI 10/2024: 2 editions (BA, PE) in one transaction\n") {
		t.Fatalf("--state ba,PE: exit %d\n%s\n%s", code, out, stderr)
	}
}

// A bad file in the last state: nothing is written, though the first
// state's edition was stored in the transaction before the file was read.
func TestImportSinapiStatesAllOrNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	// An edition there before, which must stay as it is.
	if code, _, stderr := cli(t, append([]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024"}, pe[0])...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before := editions(t, db)
	dir := statesDir(t, func(data []byte) []byte { return bytes.Replace(data, []byte(`"5,03"`), []byte(`"5;03"`), 1) })
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, "--state", "all", "--month", "10/2024", dir)
	bad := filepath.Join(dir, filepath.Base(pe[2]))
	if code != 1 || !strings.Contains(stderr, bad+" line 2: ") || out != "" {
		t.Errorf("bad file: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if !strings.Contains(stderr, "SINAPI BA: 3 files, 20285 rows read\n") {
		t.Errorf("BA was not read before PE failed:\n%s", stderr)
	}
	after := editions(t, db)
	if len(after) != 1 || !reflect.DeepEqual(after[0], before[0]) {
		t.Errorf("editions after a failed import = %+v, want %+v", after, before)
	}
}

// cancelOn is a stderr that cancels the import once a line says match.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	match  string
	cancel func()
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.match) {
		c.cancel()
	}
	return len(p), nil
}

// An import interrupted (the command's context cancelled, as by Ctrl-C)
// after the first state was stored in the transaction leaves nothing.
func TestImportSinapiStatesInterrupted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelOn{match: "SINAPI BA: 3 files", cancel: cancel}
	var out bytes.Buffer
	code := run(ctx, []string{"import", "sinapi", "--db", db, "--state", "all", "--month", "10/2024", statesDir(t, nil)}, &out, stderr)
	if code == 0 || !strings.Contains(stderr.buf.String(), "context canceled") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), stderr.buf.String())
	}
	if eds := editions(t, db); len(eds) != 0 {
		t.Errorf("an interrupted import left %d editions: %+v", len(eds), eds)
	}
}

// Through a running server (its admin listener), a state with fewer
// regime groups than the others answers null for the missing ones.
func TestImportSinapiStatesThroughServer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	startServer(t, db, nil)
	code, out, stderr := cli(t, "import", "sinapi", "--db", db, "--state", "all", "--month", "10/2024", statesDir(t, nil))
	if code != 0 || !strings.Contains(out, "imported SINAPI 10/2024: 2 editions (BA, PE) in one transaction\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
}

func TestImportSinapiStatesErrors(t *testing.T) {
	dir := statesDir(t, nil)
	noState := filepath.Join(t.TempDir(), "insumos.csv")
	if err := os.WriteFile(noState, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	db := filepath.Join(t.TempDir(), "c.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--state", "all", dir, noState}, noState + ": the file name states no state"},
		{[]string{"--state", "PE,SP", dir}, "is a file of BA, which --state does not list"},
		{[]string{"--state", "PE,SP", filepath.Join(dir, filepath.Base(pe[0]))}, "no file of SP among the files given"},
		{[]string{"--state", "PE,XX", dir}, `--state: "XX" is not a state code`},
		{[]string{"--state", "all", empty}, empty + ": the directory holds no file"},
	} {
		args := append([]string{"import", "sinapi", "--db", db, "--month", "10/2024"}, tc.args...)
		code, _, stderr := cli(t, args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a failed command created the database: %v", err)
	}
}
