package bankfiles_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/costdb/costdb/domain"
)

// record is the record an import keeps of the SICRO AL 01/2024 file at
// path (Importer.Edition's Files).
func record(t *testing.T, path string) domain.SourceFile {
	t.Helper()
	im, err := bankfiles.NewImporter(bankfiles.OfficialSicro(), "AL", "01/2024")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := im.AddFile(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	files := im.Edition().Files
	if len(files) != 1 {
		t.Fatalf("files %+v", files)
	}
	return files[0]
}

// TestFileRecordSizeHashAndTitles: an import records each file's base
// name, size, SHA-256 and the publisher's title rows; a changed byte
// changes the record.
func TestFileRecordSizeHashAndTitles(t *testing.T) {
	path := filepath.Join("sample", "data", "sicro-al-202401", "SICRO_AL_202401_Relatorio_Sintetico_Materiais.csv")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	sf := record(t, path)
	if sf.Name != filepath.Base(path) || sf.Size != int64(len(raw)) || sf.SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("record %+v, want size %d sha256 %x", sf, len(raw), sum)
	}
	want := "CGCIT SISTEMA DE CUSTOS REFERENCIAIS DE OBRAS - SICRO DNIT|Alagoas - Janeiro/2024"
	if strings.Join(sf.Titles, "|") != want {
		t.Fatalf("titles %q: want the publisher's title rows", sf.Titles)
	}

	changed := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(changed, append(raw, '\n'), 0o600); err != nil {
		t.Fatal(err)
	}
	sf2 := record(t, changed)
	if sf2.SHA256 == sf.SHA256 || sf2.Size != sf.Size+1 {
		t.Fatalf("changed file: %+v vs %+v", sf2, sf)
	}
}
