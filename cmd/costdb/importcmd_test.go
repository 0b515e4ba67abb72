package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

const testdata = "../../adapters/bankfiles/testdata/"

var (
	pe = []string{
		testdata + "sinapi-pe-202410/SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv",
		testdata + "sinapi-pe-202410/SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_Desonerado.csv",
		testdata + "sinapi-pe-202410/SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv",
	}
	al = func() []string {
		files, _ := filepath.Glob(testdata + "sicro-al-202401/*.xlsx")
		return files
	}()
)

func hashFile(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// editions lists the editions of a database file.
func editions(t *testing.T, db string) []*domain.Edition {
	t.Helper()
	st, err := boltstore.Open(db, boltstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eds, _, err := app.New(st, nil, app.Config{}).Editions(context.Background(), app.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return eds
}

func TestImportSinapiCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	args := append([]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024"}, pe...)
	code, out, stderr := cli(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "" {
		t.Errorf("stderr is not a terminal, yet: %q", stderr)
	}
	for _, want := range []string{
		"SINAPI PE 10/2024: 3 files read in ",
		"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv: SINAPI insumos, desonerado, 4811 rows\n",
		"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.csv: SINAPI composições (sintético), nao-desonerado, 7737 rows\n",
		"  nao-desonerado: 0 resources, 7737 compositions\n",
		"  desonerado: 4811 resources, 7737 compositions\n",
		"edition SINAPI PE 10/2024 now: 4811 resources, 7737 compositions (0 with structure); regimes nao-desonerado, desonerado\n",
		"took ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	eds := editions(t, db)
	if len(eds) != 1 || eds[0].Key() != "SINAPI/PE/2024-10/" || eds[0].Resources != 4811 || eds[0].Compositions != 7737 {
		t.Fatalf("editions = %+v", eds)
	}

	// Again, flags after the files: the same edition.
	code, again, stderr := cli(t, append(append([]string{"import", "sinapi"}, pe...), "--db", db, "--state", "PE", "--month", "10/2024")...)
	if code != 0 {
		t.Fatalf("second import: exit %d: %s", code, stderr)
	}
	edition := func(s string) string { return s[strings.Index(s, "edition "):strings.Index(s, "took ")] }
	if edition(again) != edition(out) {
		t.Errorf("importing again changed the edition:\n%s\n%s", edition(out), edition(again))
	}

	// A bad file among good ones: exit 1, the file and line named, the
	// database file untouched.
	before := hashFile(t, db)
	bad := filepath.Join(t.TempDir(), filepath.Base(pe[2]))
	data, err := os.ReadFile(pe[2])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, bytes.Replace(data, []byte(`"5,03"`), []byte(`"5;03"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = cli(t, "import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024", pe[0], pe[1], bad)
	if code != 1 || !strings.Contains(stderr, bad+" line 2: ") || out != "" {
		t.Errorf("bad file: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if hashFile(t, db) != before {
		t.Error("the database file changed")
	}
}

func TestImportSicroCommand(t *testing.T) {
	if len(al) != 6 {
		t.Fatalf("%d SICRO reports in testdata, want 6", len(al))
	}
	db := filepath.Join(t.TempDir(), "c.db")
	code, out, stderr := cli(t, append([]string{"import", "sicro", "--db", db, "--state", "AL", "--month", "01/2024"}, al...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"SICRO3 AL 01/2024: 6 files read in ",
		"Equipamentos_com_desoneracao.xlsx: SICRO equipamentos, desonerado, 531 rows, 22 repeated\n",
		"Materiais.xlsx: SICRO materiais, nao-desonerado+desonerado, 1655 rows, 69 not priced (left out)\n",
		"  nao-desonerado: 2196 resources, 6368 compositions\n",
		"  desonerado: 2196 resources, 0 compositions\n",
		"edition SICRO3 AL 01/2024 now: 2196 resources, 6368 compositions",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary does not say %q:\n%s", want, out)
		}
	}
	before := hashFile(t, db)
	code, _, stderr = cli(t, append([]string{"import", "sicro", "--db", db, "--state", "AL", "--month", "02/2024"}, al...)...)
	if code != 1 || !strings.Contains(stderr, "say AL 01/2024; the import is for AL 02/2024") {
		t.Errorf("another month: exit %d, stderr %q", code, stderr)
	}
	if hashFile(t, db) != before {
		t.Error("the database file changed")
	}
}

func TestImportBankUsage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"import", "sinapi", "--db", db, "--month", "10/2024", pe[0]}, 2, "--state, --month and at least one FILE are required"},
		{[]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024"}, 2, "at least one FILE"},
		{[]string{"import", "sicro", "--db", db, "--state", "AL", "--month", "01/2024", "--regime", "desonerado", al[0]}, 2, "flag provided but not defined: -regime"},
		{[]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024", "--regime", "ambos", pe[0]}, 1, `--regime "ambos" is neither`},
		{[]string{"import", "sinapi", "--db", db, "--state", "XX", "--month", "10/2024", pe[0]}, 1, `state "XX" is not a state code`},
		{[]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "2024-10", pe[0]}, 1, `month "2024-10" is not MM/YYYY`},
		{[]string{"import", "sinapi", "--db", db, "--state", "PE", "--month", "10/2024", "no-such-file.csv"}, 1, "no-such-file.csv: open"},
	} {
		code, _, stderr := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args[2:], code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a failed command created the database: %v", err)
	}
}

// On a terminal each file gets one bar, finished by a new line.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := &progressBar{w: &buf}
	for _, f := range []string{"a/SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv", "b.xlsx"} {
		p.update(f, 0, 200)
		p.update(f, 100, 200) // within 100 ms of the first: not drawn
		p.update(f, 200, 200)
		p.update(f, 200, 200) // the end again: not drawn
	}
	lines := strings.Split(buf.String(), "\n")
	if len(lines) != 3 || lines[2] != "" {
		t.Fatalf("output %q, want two finished lines", buf.String())
	}
	for i, want := range []string{"…ef_Insumos_PE_202410_Desonerado.csv [", "b.xlsx"} {
		if !strings.Contains(lines[i], want) || !strings.HasSuffix(lines[i], "[##############################] 100%") ||
			strings.Count(lines[i], "\r") != 2 || strings.Contains(lines[i], " 50%") {
			t.Errorf("line %d = %q", i, lines[i])
		}
	}
}
