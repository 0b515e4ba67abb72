package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestImportMemoryLimit: an import's limit is the server's rule, but with
// no GOMEMLIMIT and no cgroup limit it is the larger of 512 MiB and 1.5
// times the files read (a workbook or package at ten times its size, a
// directory's files summed).
func TestImportMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	sized := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
		return p
	}
	small, large := sized("small.csv", 10<<20), sized("large.csv", 400<<20)
	book := sized("book.xlsx", 50<<20)
	sub := filepath.Join(dir, "package")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.csv", "b.csv"} {
		if err := os.Rename(sized(name, 300<<20), filepath.Join(sub, name)); err != nil {
			t.Fatal(err)
		}
	}
	cgroup := filepath.Join(dir, "memory.max")
	if err := os.WriteFile(cgroup, []byte("1073741824\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		name    string
		value   string
		env     func(string) string
		cgroups []string
		files   []string
		want    int64
	}{
		{"small files: the minimum", "auto", noEnv, nil, []string{small}, 512 << 20},
		{"large files: 1.5 times", "auto", noEnv, nil, []string{small, large}, 410 << 20 / 2 * 3},
		{"a workbook at ten times its size", "auto", noEnv, nil, []string{book}, 500 << 20 / 2 * 3},
		{"a directory's files", "", noEnv, nil, []string{sub}, 600 << 20 / 2 * 3},
		{"a file not there counts nothing", "auto", noEnv, nil, []string{filepath.Join(dir, "absent.csv")}, 512 << 20},
		{"the cgroup's limit wins", "auto", noEnv, []string{cgroup}, []string{large}, 1073741824 / 10 * 9},
		{"GOMEMLIMIT: the runtime's", "auto", func(string) string { return "300MiB" }, nil, []string{large}, 0},
		{"off", "off", noEnv, nil, []string{large}, 0},
		{"a size", "300MiB", noEnv, nil, []string{large}, 300 << 20},
	} {
		got, err := importMemoryLimit(tc.value, tc.env, tc.cgroups, tc.files)
		if err != nil || got != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := importMemoryLimit("a lot", noEnv, nil, nil); err == nil {
		t.Errorf("--memory-limit 'a lot' accepted")
	}
}

// TestServeMmapSize: the server maps twice its file, in whole GiB, at
// least 1 GiB.
func TestServeMmapSize(t *testing.T) {
	if serveMmapSize(os.DevNull) == 0 {
		t.Skip("no initial mapping on this platform")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		size int64 // -1: no file
		want int
	}{
		{-1, 1 << 30},
		{64 << 20, 1 << 30},
		{512 << 20, 1 << 30},
		{700 << 20, 2 << 30},
		{(3 << 30) / 2, 3 << 30},
		{(3<<30)/2 + 1, 4 << 30},
	} {
		p := filepath.Join(dir, "costdb.db")
		_ = os.Remove(p)
		if tc.size >= 0 {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Truncate(tc.size); err != nil {
				t.Fatal(err)
			}
			_ = f.Close()
		}
		if got := serveMmapSize(p); got != tc.want {
			t.Errorf("a file of %d bytes: mapped at %d, want %d", tc.size, got, tc.want)
		}
	}
}
