package boltstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// postingWords are the words the tests draw descriptions from: accents,
// case, words inside other words (bloco, blocos; cal, calha).
var postingWords = []string{"Bloco", "blocos", "CERÂMICO", "ceramico", "Cal", "calha", "Tijolo", "maciço", "6", "x"}

// wantIDs answers text conditions the way the rule says (app.Fold; each
// condition's text contained in one of its fields), from the records
// themselves, in ID order.
func wantIDs(rs map[string]*domain.Resource, conds []app.Cond) []string {
	var out []string
	for id, r := range rs {
		all := true
		for _, c := range conds {
			in := false
			for _, f := range c.Fields {
				v := r.Description
				if f == app.FieldCode {
					v = r.Code
				}
				in = in || strings.Contains(app.Fold(v), app.Fold(c.Text))
			}
			all = all && in
		}
		if all {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// textConds are the conditions of a filter: one per word, as the
// application asks (words in any order), or the whole text in one.
func textConds(text string, split bool, fields ...app.Field) []app.Cond {
	if !split {
		return []app.Cond{{Op: app.Contains, Fields: fields, Text: text}}
	}
	var out []app.Cond
	for _, w := range strings.Fields(text) {
		out = append(out, app.Cond{Op: app.Contains, Fields: fields, Text: w})
	}
	return out
}

// listIDs lists the company's resources with the conditions, without a
// sort (ID order) and sorted by code (then the ids are sorted here to
// compare), and checks that both agree.
func listIDs(t *testing.T, s *Store, companyID string, conds []app.Cond) []string {
	t.Helper()
	var byID, byCode []string
	if err := s.View(context.Background(), func(tx app.Tx) error {
		rs, total, err := tx.Resources(companyID, app.Query{Where: conds})
		if err != nil {
			return err
		}
		for _, r := range rs {
			byID = append(byID, r.ID)
		}
		if total != len(rs) {
			t.Errorf("%v: total %d, %d listed", conds, total, len(rs))
		}
		rs, total, err = tx.Resources(companyID, app.Query{Where: conds, Sort: []app.Order{{Field: app.FieldCode, Desc: true}}, Limit: 1000})
		if err != nil {
			return err
		}
		for _, r := range rs {
			byCode = append(byCode, r.ID)
		}
		if total != len(rs) {
			t.Errorf("%v sorted: total %d, %d listed", conds, total, len(rs))
		}
		// Pages of two, found walking the sort index (each entry looked up
		// in the postings, when that is the cheaper way).
		for offset := 0; offset < len(byCode)+1; offset += 2 {
			page, total, err := tx.Resources(companyID, app.Query{Where: conds, Sort: []app.Order{{Field: app.FieldCode, Desc: true}}, Offset: offset, Limit: 2})
			if err != nil {
				return err
			}
			var got []string
			for _, r := range page {
				got = append(got, r.ID)
			}
			if want := byCode[offset:min(offset+2, len(byCode))]; total != len(byCode) || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%v page at %d: %v of %d, want %v of %d", conds, offset, got, total, want, len(byCode))
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(byCode)
	if !slices.Equal(byID, byCode) {
		t.Errorf("%v: %v in ID order, %v sorted by code", conds, byID, byCode)
	}
	return byID
}

// checkFilters compares the answers of text filters on description, code
// and both with the rule's.
func checkFilters(t *testing.T, s *Store, companyID string, rs map[string]*domain.Resource) {
	t.Helper()
	for _, q := range []struct {
		text   string
		fields []app.Field
	}{
		{"bloco", []app.Field{app.FieldDescription}},
		{"BLOCOS", []app.Field{app.FieldDescription}},
		{"ceramico bloco", []app.Field{app.FieldDescription}},
		{"bloco cerâmico", []app.Field{app.FieldDescription}},
		{"cal", []app.Field{app.FieldDescription}},
		{"macico tijolo 6", []app.Field{app.FieldDescription}},
		{"calha", []app.Field{app.FieldDescription}},
		{"nada", []app.Field{app.FieldDescription}},
		{"r-1", []app.Field{app.FieldCode}},
		{"R-2 b", []app.Field{app.FieldCode}},
		{"ç", []app.Field{app.FieldCode}},
		{"1 cal", []app.Field{app.FieldCode, app.FieldDescription}},
		{"r-3", []app.Field{app.FieldCode, app.FieldDescription}},
	} {
		for _, split := range []bool{true, false} {
			conds := textConds(q.text, split, q.fields...)
			want := wantIDs(rs, conds)
			if got := listIDs(t, s, companyID, conds); !slices.Equal(got, want) {
				t.Errorf("%q on %v (one condition a word: %v): %v, want %v", q.text, q.fields, split, got, want)
			}
		}
	}
}

// checkPostings checks the layout of list_postings (each chunk holds 1 to
// chunkIDs ids, in order, from the id its key ends with; a token's chunks
// do not overlap) and that it and list_terms hold the same postings and
// counts as the index built from the rows.
func checkPostings(t *testing.T, s *Store) {
	t.Helper()
	read := func(btx *bolt.Tx) (map[string][]string, map[string]uint64) {
		posts := map[string][]string{}
		terms := map[string]uint64{}
		_ = btx.Bucket(bucketListPostings).ForEach(func(k, v []byte) error {
			var ids []string
			forEachID(v, func(id []byte) bool { ids = append(ids, string(id)); return true })
			token, first := "", ""
			if len(ids) > 0 {
				first = ids[0]
				token = string(k[:len(k)-len(first)])
			}
			switch {
			case len(ids) == 0 || len(ids) > chunkIDs:
				t.Errorf("chunk %q holds %d ids (at most %d)", k, len(ids), chunkIDs)
			case !strings.HasSuffix(string(k), first):
				t.Errorf("chunk %q starts with %q", k, first)
			case !slices.IsSorted(ids) || len(slices.Compact(slices.Clone(ids))) != len(ids):
				t.Errorf("chunk %q: %v not in order", k, ids)
			case len(posts[token]) > 0 && posts[token][len(posts[token])-1] >= first:
				t.Errorf("chunk %q overlaps the one before", k)
			}
			posts[token] = append(posts[token], ids...)
			return nil
		})
		_ = btx.Bucket(bucketListTerms).ForEach(func(k, v []byte) error {
			terms[string(k)] = binary.BigEndian.Uint64(v)
			return nil
		})
		return posts, terms
	}
	if err := s.db.Update(func(btx *bolt.Tx) error {
		posts, terms := read(btx)
		for _, name := range wordBuckets {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
		}
		if err := buildListWords(btx); err != nil {
			return err
		}
		builtPosts, builtTerms := read(btx)
		if fmt.Sprint(posts) != fmt.Sprint(builtPosts) {
			t.Errorf("postings kept:\n%v\nbuilt from the rows:\n%v", posts, builtPosts)
		}
		if fmt.Sprint(terms) != fmt.Sprint(builtTerms) {
			t.Errorf("vocabulary kept:\n%v\nbuilt from the rows:\n%v", terms, builtTerms)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestListPostingsChunks: with chunks of five ids and a restart every
// two (a lookup searches the restarts, then reads the ids after one), writes in random ID
// order (puts, replaces, deletes, several transactions, inside and
// outside a batch) split, grow, shrink and empty chunks; the chunks stay
// well formed, hold what the index built from the rows holds, and every
// text filter answers as the rule does.
func TestListPostingsChunks(t *testing.T) {
	defer func(n, r int) { chunkIDs, restartIDs = n, r }(chunkIDs, restartIDs)
	chunkIDs, restartIDs = 5, 2
	s := open(t, filepath.Join(t.TempDir(), "costdb.db"))
	defer s.Close()
	ctx := context.Background()
	co := &domain.Company{ID: "01HZXCO1", Name: "Construtora"}
	if err := s.Update(ctx, func(tx app.Tx) error { return tx.PutCompany(co) }); err != nil {
		t.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(29, 1))
	rs := map[string]*domain.Resource{}
	for round := range 12 {
		batch := round%3 == 2
		if err := s.Update(ctx, func(tx app.Tx) error {
			write := func() error {
				for range 25 {
					i := rnd.IntN(60)
					id := fmt.Sprintf("01HZXRE%03d", i)
					if _, held := rs[id]; held && rnd.IntN(4) == 0 {
						delete(rs, id)
						if err := tx.DeleteResource(id); err != nil {
							return err
						}
						continue
					}
					var words []string
					for range 1 + rnd.IntN(4) {
						words = append(words, postingWords[rnd.IntN(len(postingWords))])
					}
					r := &domain.Resource{ID: id, CompanyID: co.ID, Code: fmt.Sprintf("R-%d %s", i, []string{"A", "b", "Ç"}[i%3]),
						Description: strings.Join(words, " "), Type: domain.TypeMaterial, Unit: "UN", CreatedAt: time.Unix(int64(i), 0).UTC()}
					rs[id] = r
					if err := tx.PutResource(r); err != nil {
						return err
					}
				}
				return nil
			}
			if batch {
				return tx.(app.BatchTx).Batch(write)
			}
			return write()
		}); err != nil {
			t.Fatal(err)
		}
		checkFilters(t, s, co.ID, rs)
		checkPostings(t, s)
		if t.Failed() {
			t.Fatalf("after round %d", round)
		}
	}
}

// TestListWordsOldLayout: a file whose lists' word index is in the layout
// of earlier costdb versions (list_vocab and list_words: one key per token
// and record, the code's tokens too) is opened: the index is built in the
// present layout, the old buckets are gone, and the text filters answer as
// before. The old buckets here are written as those versions wrote them,
// and left stale (the last record is missing from them), as a file is when
// a costdb without the present layout wrote it last: nothing may be read
// from them.
//
// Two files: one whose word index is only in the old layout (written by a
// costdb before the present layout), and one that holds the present
// buckets too, stale (emptied here: the file was written by this costdb,
// then by an earlier one, which kept only its own buckets).
func TestListWordsOldLayout(t *testing.T) {
	for _, both := range []bool{false, true} {
		t.Run(fmt.Sprintf("present layout too: %v", both), func(t *testing.T) { testOldLayout(t, both) })
	}
}

func testOldLayout(t *testing.T, both bool) {
	path := filepath.Join(t.TempDir(), "costdb.db")
	s := open(t, path)
	ctx := context.Background()
	co := &domain.Company{ID: "01HZXCO1", Name: "Construtora"}
	rs := map[string]*domain.Resource{}
	if err := s.Update(ctx, func(tx app.Tx) error {
		if err := tx.PutCompany(co); err != nil {
			return err
		}
		for i, d := range []string{"ALVENARIA DE BLOCO CERÂMICO", "Bloco de concreto", "Pintura", "Tijolo cerâmico maciço", "bloco calha cal"} {
			r := &domain.Resource{ID: fmt.Sprintf("01HZXRE%d", i), CompanyID: co.ID, Code: fmt.Sprintf("R-%d", i),
				Description: d, Type: domain.TypeMaterial, Unit: "UN", CreatedAt: time.Unix(int64(i), 0).UTC()}
			rs[r.ID] = r
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	checkFilters(t, s, co.ID, rs)
	s.Close()

	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(btx *bolt.Tx) error {
		for _, name := range wordBuckets {
			if err := btx.DeleteBucket(name); err != nil {
				return err
			}
			if both {
				if _, err := btx.CreateBucket(name); err != nil {
					return err
				}
			}
		}
		vocab, err := btx.CreateBucket([]byte("list_vocab"))
		if err != nil {
			return err
		}
		words, err := btx.CreateBucket([]byte("list_words"))
		if err != nil {
			return err
		}
		for id, r := range rs {
			if id == "01HZXRE4" {
				continue // stale: written since by a costdb that kept the present layout
			}
			for _, f := range []struct{ field, text string }{{"code", r.Code}, {"description", r.Description}} {
				prefix := key("resources", co.ID, f.field, "")
				for _, tok := range strings.Fields(app.Fold(f.text)) {
					vk := append(slices.Clone(prefix), tok...)
					var n [8]byte
					if v := vocab.Get(vk); v != nil {
						copy(n[:], v)
					}
					binary.BigEndian.PutUint64(n[:], binary.BigEndian.Uint64(n[:])+1)
					if err := vocab.Put(vk, n[:]); err != nil {
						return err
					}
					if err := words.Put(append(esc(slices.Clone(prefix), []byte(tok)), id...), []byte{}); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s = open(t, path)
	defer s.Close()
	if err := s.db.View(func(btx *bolt.Tx) error {
		for _, name := range oldWordBuckets {
			if btx.Bucket(name) != nil {
				t.Errorf("bucket %s of the earlier layout still there", name)
			}
		}
		if btx.Bucket(bucketListPostings).Stats().KeyN == 0 {
			t.Error("no postings built")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	checkFilters(t, s, co.ID, rs)
	checkPostings(t, s)
	if got := listIDs(t, s, co.ID, textConds("calha", false, app.FieldDescription)); !slices.Equal(got, []string{"01HZXRE4"}) {
		t.Errorf("calha: %v, want the record the old buckets missed", got)
	}
}

// TestTokens: the tokens of a text are its distinct runs between white
// space as bytes.Fields cuts them (Unicode white space too), sorted.
func TestTokens(t *testing.T) {
	for _, s := range []string{
		"", " ", "bloco", "  bloco  de\tconcreto\nbloco ", "a\u00a0b\u0085c\u2003d e", "ç\u00a0ç", "x\xffy z", "\u3000cal\u3000",
	} {
		want := bytes.Fields([]byte(s))
		slices.SortFunc(want, bytes.Compare)
		want = slices.CompactFunc(want, bytes.Equal)
		if got := tokens([][]byte{[]byte("old")}, []byte(s)); fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) {
			t.Errorf("tokens(%q) = %q, want %q", s, got, want)
		}
	}
}
