package reports

import (
	"bytes"
	"encoding/binary"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
)

// ttfGlyphs reads a TrueType font's tables and returns each glyph's data
// (from loca and glyf), hmtx, and the sum of the whole file's words.
func ttfGlyphs(t *testing.T, ttf []byte) (glyphs [][]byte, hmtx []byte, sum uint32) {
	t.Helper()
	be := binary.BigEndian
	tables := map[string][]byte{}
	for i := range int(be.Uint16(ttf[4:])) {
		rec := ttf[12+16*i:]
		off, n := be.Uint32(rec[8:]), be.Uint32(rec[12:])
		tables[string(rec[:4])] = ttf[off : off+n]
	}
	head, loca, glyf := tables["head"], tables["loca"], tables["glyf"]
	n := int(be.Uint16(tables["maxp"][4:]))
	for g := range n {
		var a, b int
		if be.Uint16(head[50:]) == 1 {
			a, b = int(be.Uint32(loca[4*g:])), int(be.Uint32(loca[4*g+4:]))
		} else {
			a, b = 2*int(be.Uint16(loca[2*g:])), 2*int(be.Uint16(loca[2*g+2:]))
		}
		glyphs = append(glyphs, glyf[a:b])
	}
	return glyphs, tables["hmtx"], ttfChecksum(ttf)
}

// The subset of a font keeps every glyph's number and width, the outlines
// of glyph 0 and of the glyphs used, and no other outline; its checksums
// hold.
func TestSubsetTTF(t *testing.T) {
	regular, _, err := pdfFaces()
	if err != nil {
		t.Fatal(err)
	}
	e, z := regular.glyphOf('é'), regular.glyphOf('Z')
	used := make([]bool, regular.numGlyphs)
	used[e] = true
	sub, err := subsetTTF(goregular.TTF, used)
	if err != nil {
		t.Fatal(err)
	}
	if len(sub) >= len(goregular.TTF)/4 {
		t.Errorf("the subset of one glyph takes %d bytes of the font's %d", len(sub), len(goregular.TTF))
	}
	whole, wholeHmtx, _ := ttfGlyphs(t, goregular.TTF)
	glyphs, hmtx, sum := ttfGlyphs(t, sub)
	if len(glyphs) != len(whole) {
		t.Fatalf("%d glyphs, want %d (numbers kept)", len(glyphs), len(whole))
	}
	if !bytes.Equal(hmtx, wholeHmtx) {
		t.Errorf("the widths (hmtx) changed")
	}
	if sum != 0xB1B0AFBA {
		t.Errorf("the font's checksum is %#x, want 0xB1B0AFBA", sum)
	}
	kept := map[int]bool{0: true, int(e): true}
	// The Go fonts have no composite glyph (fewer than 0 contours), whose
	// parts the subset would have to keep.
	for g, data := range whole {
		if len(data) >= 10 && int16(binary.BigEndian.Uint16(data)) < 0 {
			t.Errorf("glyph %d of the Go font is composite", g)
		}
	}
	for g := range whole {
		got, want := glyphs[g], whole[g]
		if !kept[g] {
			want = nil
		}
		if len(got) < len(want) || !bytes.Equal(got[:len(want)], want) || len(want) == 0 && len(got) != 0 {
			t.Errorf("glyph %d: %d bytes, want %d (kept %v)", g, len(got), len(want), kept[g])
		}
	}
	if len(glyphs[z]) != 0 {
		t.Errorf("an unused glyph (Z) kept its outline")
	}
	if _, err := subsetTTF(goregular.TTF[:100], used); err == nil {
		t.Errorf("a cut font file gave no error")
	}
}

// fit keeps what fits in a cell and cuts the rest with "…", as the
// documents always did: the longest start that fits, its last rune made
// the ellipsis; never less than one rune.
func TestFit(t *testing.T) {
	regular, _, err := pdfFaces()
	if err != nil {
		t.Fatal(err)
	}
	const size = 8
	w := func(s string) float64 { return regular.width(s, size) }
	long := "ALVENARIA DE VEDAÇÃO DE BLOCOS CERÂMICOS FURADOS NA HORIZONTAL"
	for _, c := range []struct {
		name  string
		s     string
		width float64
		want  string
	}{
		{"fits", "SINAPI", w("SINAPI") + 4, "SINAPI"},
		{"empty", "", 10, ""},
		{"one rune too wide", "W", 1, "W"},
		{"two runes, one fits", "WW", w("W") + 4, "W"},
		{"cut", long, w("ALVENARIA DE") + 4, "ALVENARIA D…"},
		{"cut after an accent", long, w("ALVENARIA DE VEDAÇ") + 4.01, "ALVENARIA DE VEDA…"},
	} {
		if got := regular.fit(c.s, size, c.width); got != c.want {
			t.Errorf("%s: fit(%q, %.2f) = %q, want %q", c.name, c.s, c.width, got, c.want)
		}
	}
}
