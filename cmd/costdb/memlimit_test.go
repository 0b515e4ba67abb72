package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMemoryLimit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	limited, unlimited := write("v2", "1073741824\n"), write("max", "max\n")
	v1huge := write("v1", "9223372036854771712\n")
	noEnv := func(string) string { return "" }
	for _, tc := range []struct {
		value string
		env   func(string) string
		files []string
		want  int64
		from  string
	}{
		{"auto", noEnv, []string{limited}, 1073741824 / 10 * 9, "90% of the cgroup limit " + limited},
		{"", noEnv, []string{filepath.Join(dir, "absent"), limited}, 1073741824 / 10 * 9, "90% of the cgroup limit " + limited},
		{"auto", noEnv, []string{unlimited}, 0, "no cgroup limit"},
		{"auto", noEnv, []string{v1huge}, 0, "no cgroup limit"},
		{"auto", noEnv, nil, 0, "no cgroup limit"},
		{"auto", func(string) string { return "500MiB" }, []string{limited}, 0, "GOMEMLIMIT"},
		{"off", noEnv, []string{limited}, 0, "off"},
		{"800MiB", noEnv, nil, 800 << 20, "--memory-limit"},
		{"1.5GiB", noEnv, nil, 3 << 29, "--memory-limit"},
		{"2GB", noEnv, nil, 2e9, "--memory-limit"},
		{"134217728", noEnv, nil, 1 << 27, "--memory-limit"},
	} {
		got, from, err := memoryLimit(tc.value, tc.env, tc.files)
		if err != nil || got != tc.want || from != tc.from {
			t.Errorf("%q: %d %q %v, want %d %q", tc.value, got, from, err, tc.want, tc.from)
		}
	}
	for _, bad := range []string{"lots", "-1GiB", "10MiB", "0", "1e30GiB"} {
		if _, _, err := memoryLimit(bad, noEnv, nil); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
