package boltstore

import (
	"encoding/binary"
	"errors"
)

// The row of a list entry is stored in a compact binary form that a scan
// reads without allocating: a version byte (1), then the texts Code, FCode,
// Desc, FDesc, Client, FClient, Unit, State, TypeText, Group, each as a
// uvarint length and its bytes; TypeNum as a varint; one byte of flags
// (1: Status, 2: Sicro); Priced as a uvarint count and texts; Created and
// Updated as two varints each (seconds, nanoseconds); Uses as a uvarint
// count and, for each, kind and code as texts.

const rowVersion = 1

var errBadRow = errors.New("bad list row")

// encodeRow writes w in the binary form.
func encodeRow(w *row) []byte {
	b := make([]byte, 0, 64+len(w.Code)*2+len(w.Desc)*2+len(w.Client)*2)
	b = append(b, rowVersion)
	for _, s := range []string{w.Code, w.FCode, w.Desc, w.FDesc, w.Client, w.FClient, w.Unit, w.State, w.TypeText, w.Group} {
		b = appendText(b, s)
	}
	b = binary.AppendVarint(b, int64(w.TypeNum))
	var flags byte
	if w.Status {
		flags |= 1
	}
	if w.Sicro {
		flags |= 2
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(len(w.Priced)))
	for _, s := range w.Priced {
		b = appendText(b, s)
	}
	b = binary.AppendVarint(b, w.Created[0])
	b = binary.AppendVarint(b, w.Created[1])
	b = binary.AppendVarint(b, w.Updated[0])
	b = binary.AppendVarint(b, w.Updated[1])
	b = binary.AppendUvarint(b, uint64(len(w.Uses)))
	for _, u := range w.Uses {
		b = appendText(b, u.Kind)
		b = appendText(b, u.Code)
	}
	return b
}

func appendText(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// rowView is a row read in place: its texts point into the stored bytes,
// valid only during the transaction and until the view is reused.
type rowView struct {
	Code, FCode, Desc, FDesc, Client, FClient, Unit, State, TypeText, Group []byte

	TypeNum          int
	Status, Sicro    bool
	Priced           [][]byte
	Created, Updated instant
	uses             []byte // the encoded Uses, decoded by row()
}

// parseRow reads b into v, reusing v's slices.
func parseRow(b []byte, v *rowView) error {
	r := rowReader{b: b}
	if r.byte() != rowVersion {
		return errBadRow
	}
	for _, p := range []*[]byte{&v.Code, &v.FCode, &v.Desc, &v.FDesc, &v.Client, &v.FClient, &v.Unit, &v.State, &v.TypeText, &v.Group} {
		*p = r.text()
	}
	v.TypeNum = int(r.varint())
	flags := r.byte()
	v.Status, v.Sicro = flags&1 != 0, flags&2 != 0
	n := r.uvarint()
	v.Priced = v.Priced[:0]
	for i := uint64(0); i < n && r.err == nil; i++ {
		v.Priced = append(v.Priced, r.text())
	}
	v.Created = instant{r.varint(), r.varint()}
	v.Updated = instant{r.varint(), r.varint()}
	v.uses = r.b
	return r.err
}

// row returns a copy of the view as a row.
func (v *rowView) row() (*row, error) {
	w := &row{
		Code: string(v.Code), FCode: string(v.FCode), Desc: string(v.Desc), FDesc: string(v.FDesc),
		Client: string(v.Client), FClient: string(v.FClient), Unit: string(v.Unit), State: string(v.State),
		TypeText: string(v.TypeText), Group: string(v.Group), TypeNum: v.TypeNum, Status: v.Status, Sicro: v.Sicro,
		Created: v.Created, Updated: v.Updated,
	}
	for _, p := range v.Priced {
		w.Priced = append(w.Priced, string(p))
	}
	r := rowReader{b: v.uses}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		w.Uses = append(w.Uses, usedEntry{Kind: string(r.text()), Code: string(r.text())})
	}
	return w, r.err
}

type rowReader struct {
	b   []byte
	err error
}

func (r *rowReader) byte() byte {
	if len(r.b) == 0 {
		r.err = errBadRow
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *rowReader) uvarint() uint64 {
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errBadRow
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *rowReader) varint() int64 {
	x, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errBadRow
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *rowReader) text() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errBadRow
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}
