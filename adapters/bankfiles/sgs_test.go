package bankfiles_test

import (
	"strings"
	"testing"

	"github.com/costdb/costdb/adapters/bankfiles"
	"github.com/google/go-cmp/cmp"
)

// An SGS export in the layout Banco Central's site and API give (quoted
// fields, dd/mm/yyyy, decimal comma; built here, not a downloaded file),
// and one as a spreadsheet saves it (unquoted, mm/yyyy, thousands dots).
func TestReadSGS(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\"data\";\"valor\"\r\n\"01/01/2026\";\"0,50\"\r\n\"01/02/2026\";\"0,30\"\r\n\"01/03/2026\";\"-0,10\"\r\n", "01/2026 0.5;02/2026 0.3;03/2026 -0.1"},
		{"\ufeffdata;valor\n01/2026;1.234,567\n02/2026;1.240,1\n\n", "01/2026 1234.567;02/2026 1240.1"},
	} {
		pts, err := bankfiles.ReadSGS(strings.NewReader(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range pts {
			got = append(got, p.Month+" "+p.Value.String())
		}
		if diff := cmp.Diff(tc.want, strings.Join(got, ";")); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"date;value\n01/2026;1\n", `the first row must be the header "data;valor"`},
		{"data;valor\n32/01/2026;1\n01/2026;x\n01/2026\n", `row 2: "32/01/2026" is not a date dd/mm/yyyy or mm/yyyy; row 3: "x" is not a number with a decimal comma; row 4: two fields expected`},
		{"data;valor\n", "no row after its header"},
	} {
		if _, err := bankfiles.ReadSGS(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
