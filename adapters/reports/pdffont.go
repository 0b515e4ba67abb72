package reports

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
)

// subsetTTF returns the TrueType font ttf with only the outlines of the
// glyphs used marks and of glyph 0: the others are left empty, so every glyph keeps its number
// (the documents draw glyph numbers through an identity map) and the
// widths stay in hmtx. Only the tables a PDF reader uses to draw an
// embedded TrueType font are kept (cvt, fpgm, glyf, head, hhea, hmtx,
// loca, maxp, prep). It is what gopdf did with its fonts, the glyphs kept
// in place: a document of one page embeds a few kilobytes of each font,
// not the whole 130 KB.
func subsetTTF(ttf []byte, used []bool) ([]byte, error) {
	bad := errors.New("reports: a font file the PDF writer cannot read")
	be := binary.BigEndian
	if len(ttf) < 12 {
		return nil, bad
	}
	tables := map[string][]byte{}
	for i, n := 0, int(be.Uint16(ttf[4:])); i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(ttf) {
			return nil, bad
		}
		tag := string(ttf[rec : rec+4])
		off, size := int(be.Uint32(ttf[rec+8:])), int(be.Uint32(ttf[rec+12:]))
		if off < 0 || size < 0 || off+size > len(ttf) {
			return nil, bad
		}
		switch tag {
		case "cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "prep":
			tables[tag] = ttf[off : off+size]
		}
	}
	head, maxp, loca, glyf := tables["head"], tables["maxp"], tables["loca"], tables["glyf"]
	if len(head) < 54 || len(maxp) < 6 || glyf == nil {
		return nil, bad
	}
	numGlyphs := int(be.Uint16(maxp[4:]))
	long := be.Uint16(head[50:]) == 1
	at := func(g int) (int, int, bool) { // glyph g's data in glyf
		var a, b int
		if long {
			if 4*g+8 > len(loca) {
				return 0, 0, false
			}
			a, b = int(be.Uint32(loca[4*g:])), int(be.Uint32(loca[4*g+4:]))
		} else {
			if 2*g+4 > len(loca) {
				return 0, 0, false
			}
			a, b = 2*int(be.Uint16(loca[2*g:])), 2*int(be.Uint16(loca[2*g+2:]))
		}
		return a, b, a <= b && b <= len(glyf)
	}

	// The glyphs kept: those used and glyph 0. A composite glyph (fewer
	// than 0 contours) would need its parts too: the Go fonts have none
	// (TestSubsetTTF), and a font that has one is embedded whole.
	keep := make([]bool, numGlyphs)
	for g := range numGlyphs {
		if g != 0 && (g >= len(used) || !used[g]) {
			continue
		}
		a, b, ok := at(g)
		if !ok {
			return nil, bad
		}
		if b-a >= 10 && int16(be.Uint16(glyf[a:])) < 0 {
			return ttf, nil
		}
		keep[g] = true
	}

	var newGlyf []byte
	newLoca := make([]byte, 4*(numGlyphs+1))
	for g := range numGlyphs {
		if keep[g] {
			a, b, _ := at(g)
			newGlyf = append(newGlyf, glyf[a:b]...)
			for len(newGlyf)%4 != 0 {
				newGlyf = append(newGlyf, 0)
			}
		}
		be.PutUint32(newLoca[4*g+4:], uint32(len(newGlyf)))
	}
	newHead := slices.Clone(head)
	be.PutUint32(newHead[8:], 0)  // checkSumAdjustment, set below
	be.PutUint16(newHead[50:], 1) // long offsets in loca
	tables["glyf"], tables["loca"], tables["head"] = newGlyf, newLoca, newHead

	tags := make([]string, 0, len(tables))
	for tag := range tables {
		tags = append(tags, tag)
	}
	slices.Sort(tags)
	n := len(tags)
	pow := 1 << (bits.Len(uint(n)) - 1) // the largest power of 2 ≤ n
	out := make([]byte, 12+16*n)
	be.PutUint32(out, 0x00010000)
	be.PutUint16(out[4:], uint16(n))
	be.PutUint16(out[6:], uint16(16*pow))
	be.PutUint16(out[8:], uint16(bits.Len(uint(pow))-1))
	be.PutUint16(out[10:], uint16(16*n-16*pow))
	headAt := 0
	for i, tag := range tags {
		t := tables[tag]
		rec := out[12+16*i:]
		copy(rec, tag)
		be.PutUint32(rec[4:], ttfChecksum(t))
		be.PutUint32(rec[8:], uint32(len(out)))
		be.PutUint32(rec[12:], uint32(len(t)))
		if tag == "head" {
			headAt = len(out)
		}
		out = append(out, t...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	be.PutUint32(out[headAt+8:], 0xB1B0AFBA-ttfChecksum(out))
	return out, nil
}

// ttfChecksum is the sum of b's big-endian 32-bit words (the last one
// padded with zeros).
func ttfChecksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
