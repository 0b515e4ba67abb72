package bankfiles_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
)

// The names of the files of the official packages, as published, and the
// import that reads each ("" when none does).
func TestClassify(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		known bool
		imp   string
	}{
		{"SINAPI_Referência_2025_12.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Manutenções_2025_12.xlsx", true, bankfiles.ImportSinapiChanges},
		{"SINAPI_Encargos_Sociais_AC_201304.xlsx", true, bankfiles.ImportSinapiCharges},
		{"SINAPI_Encargos_Sociais_AC_201304.pdf", true, ""},
		{"SINAPI_familias_e_coeficientes_2025_12.xlsx", true, ""},
		{"SINAPI_mao_de_obra_2025_12.xlsx", true, ""},
		{"SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Custo_Ref_Composicoes_Sintetico_PE_202410_NaoDesonerado.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Custo_Ref_Composicoes_Analitico_SP_202412_NaoDesonerado.xlsx", true, bankfiles.ImportSinapi},
		{"SINAPI_Custo_Ref_Composicoes_Analitico_SP_202412_NaoDesonerado.pdf", true, ""},
		{"_SINAPI_Relatório_Família_de_Insumos_2024_12.xlsx", true, ""},
		{"Notas_SINAPI.pdf", true, ""},
		{"AL 01-2024 Relatório Sintético de Composições de Custos.xlsx", true, bankfiles.ImportSicro},
		{"AL 01-2024 Relatório Sintético de Equipamentos com desoneração.xlsx", true, bankfiles.ImportSicro},
		{"AL 01-2024 Relatório Sintético de Mão de Obra.xlsx", true, bankfiles.ImportSicro},
		{"SICRO_AL_202401_Relatorio_Sintetico_Materiais.xlsx", true, bankfiles.ImportSicro},
		{"AL 01-2024 Relat_rio Sint_tico de Encargos Sociais.xlsx", true, bankfiles.ImportSicroCharges},
		{"AL 01-2024 Relatório Analítico de Composições de Custos.xlsx", true, ""},
		{"AL 01-2024 Relatório Sintético de Materiais.pdf", true, ""},
		{"composicoes.csv", false, ""},
		{"leia-me.xls", false, ""},
	}
	for _, tc := range cases {
		k, ok := bankfiles.Classify(tc.name)
		if ok != tc.known || k.Import != tc.imp || ok && k.Import == "" && k.Skip == "" {
			t.Errorf("Classify(%q) = %+v, %v; want known %v, import %q", tc.name, k, ok, tc.known, tc.imp)
		}
	}
}

// A package zip's entries are extracted within the zip caps: an entry
// whose header lies (1 KB said, 64 MiB of zeros inflated) is refused while
// it is extracted, and so is a zip whose entries together pass the total
// cap; nothing extracted is left behind.
func TestPackageZipCaps(t *testing.T) {
	dir := t.TempDir()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var packed bytes.Buffer
	fw, _ := flate.NewWriter(&packed, flate.BestSpeed)
	if err := zeros(64 << 20)(fw); err != nil {
		t.Fatal(err)
	}
	fw.Close()
	liar := filepath.Join(dir, "SINAPI_ref_Insumos_Composicoes_PE_202410_Desonerado.zip")
	out, _ := os.Create(liar)
	zw := zip.NewWriter(out)
	w, _ := zw.Create("Notas_SINAPI.pdf")
	w.Write([]byte("%PDF-1.4\n"))
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx", Method: zip.Deflate,
		CompressedSize64: uint64(packed.Len()), UncompressedSize64: 1024, CRC32: crc32.ChecksumIEEE(make([]byte, 1024))})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(packed.Bytes())
	zw.Close()
	out.Close()
	grew, err := heapPeak(t, func() error {
		_, err := bankfiles.OpenPackage(context.Background(), liar, bankfiles.ImportSinapi, bankfiles.Limits{})
		return err
	})
	// archive/zip stops at the declared size (zip.ErrFormat), before any cap.
	if err == nil || !strings.Contains(err.Error(), liar) || !strings.Contains(err.Error(), "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.xlsx") {
		t.Errorf("a lying header: error %v, want one naming the zip and the entry", err)
	}
	if grew > heapBound {
		t.Errorf("the heap grew by %d MiB", grew>>20)
	}

	// Two entries of text, each within the caps, over a lowered total.
	text := func(w io.Writer) {
		for i := 0; i < 200_000; i++ {
			fmt.Fprintf(w, "%d;%x\n", i, i*7919)
		}
	}
	two := filepath.Join(dir, "SINAPI_ref_Insumos_Composicoes_BA_202410_Desonerado.zip")
	out, _ = os.Create(two)
	zw = zip.NewWriter(out)
	for _, name := range []string{"SINAPI_Preco_Ref_Insumos_BA_202410_Desonerado.csv", "SINAPI_Custo_Ref_Composicoes_Sintetico_BA_202410_Desonerado.csv"} {
		w, _ := zw.Create(name)
		text(w)
	}
	zw.Close()
	out.Close()
	_, err = bankfiles.OpenPackage(context.Background(), two, bankfiles.ImportSinapi, bankfiles.Limits{TotalBytes: 4 << 20})
	wantCap(t, err, 0, two, bankfiles.CapTotalBytes)
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	// Within the caps: both extracted, under their own names.
	p, err := bankfiles.OpenPackage(context.Background(), two, bankfiles.ImportSinapi, bankfiles.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Files) != 2 || filepath.Base(p.Files[0].Path) != "SINAPI_Custo_Ref_Composicoes_Sintetico_BA_202410_Desonerado.csv" {
		t.Errorf("files %+v", p.Files)
	}
	p.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind after Close: %v", left)
	}
}

// A zip's entries are extracted for the import that reads them: the same
// zip gives the SICRO import its report and the SINAPI import its file.
func TestPackageZipPerImport(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "mixed.zip")
	out, _ := os.Create(path)
	zw := zip.NewWriter(out)
	for _, name := range []string{"AL 01-2024 Relatório Sintético de Materiais.xlsx", "SINAPI_Preco_Ref_Insumos_PE_202410_Desonerado.csv", "AL 01-2024 Relatório Sintético de Materiais.pdf"} {
		w, _ := zw.Create(name)
		w.Write([]byte("x"))
	}
	zw.Close()
	out.Close()
	for _, imp := range []string{bankfiles.ImportSicro, bankfiles.ImportSinapi} {
		p, err := bankfiles.OpenPackage(context.Background(), path, imp, bankfiles.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range p.Files {
			if f.Path != "" {
				got = append(got, f.Kind.Import+": "+filepath.Base(f.Path))
				if b, err := os.ReadFile(f.Path); err != nil || string(b) != "x" {
					t.Errorf("%s: %q %v", f.Path, b, err)
				}
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], imp+": ") {
			t.Errorf("import %s: extracted %v", imp, got)
		}
		p.Close()
	}
}
