package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// termWords are the filter words the vocabulary test asks: one token
// (vedação, its accent-free form, parede), several (alvenaria: alvenaria,
// alvenarias, alvenaria\u200bzw), none, LIKE's own characters, a word with
// a space (counted), words of two letters (counted).
var termWords = []string{"alvenaria", "ALVENARIAS", "vedação", "VEDACAO", "parede", "pared", "arede", "zw", "100%", "a_b", "a%b",
	"nada", "bloco", "bl", "de", "tail", "x\u200by", "em\u00a0x", "ceramico", "cerâmico", "2003c", "c\u3000d", "xyz", "ede"}

// termTexts are descriptions with the spaces unicode.IsSpace knows, and
// runes that look like spaces and are not.
var termTexts = []string{
	"BLOCO CERÂMICO PARA ALVENARIA DE VEDAÇÃO",
	"ALVENARIA DE VEDAÇÃO COM BLOCO CERÂMICO",
	"ALVENARIAS\u00a0DE\u2003PAREDE",
	"parede\tparede\nparede", // a token twice: the record counts once
	"ALVENARIA E ALVENARIAS", // two tokens that hold alvenaria: the record counts once
	"x\u200by\u180ez\ufeffw  tail alvenaria\u200bzw ",
	"100% a_b a%b",
	"a\u00a0b\u2003c\u3000d\te\nf\u0085g\u202fh\u205fi\u1680j\u2028k\u2029l\vm\fn\ro\u2000p\u2001q\u2002r\u2004s\u2005t\u2006u\u2007v\u2008w\u2009x\u200ay",
	"em\u00a0x 2003c",
	"",
	"   ",
}

type termsCheck struct {
	t    *testing.T
	st   *pgstore.Store
	conn *pgx.Conn
	cos  []string
}

func newTermsCheck(t *testing.T) *termsCheck {
	url := newDatabase(t)
	st := openURL(t, url, pgstore.Options{})
	conn, err := pgx.Connect(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(bg) })
	c := &termsCheck{t: t, st: st, conn: conn}
	now := time.Now().UTC()
	for _, name := range []string{"Terms A", "Terms B"} {
		co := &domain.Company{ID: app.NewID(now), Name: name, CreatedAt: now}
		if err := st.Update(bg, func(tx app.Tx) error { return tx.PutCompany(co) }); err != nil {
			t.Fatal(err)
		}
		c.cos = append(c.cos, co.ID)
	}
	return c
}

func termResource(company, code, desc string) *domain.Resource {
	return &domain.Resource{ID: app.NewID(time.Now()), CompanyID: company, Code: code, Description: desc, Type: domain.TypeMaterial,
		Unit: "UN", Status: true, Locals: map[string]domain.PriceLine{}, CreatedAt: time.Now().UTC()}
}

func wordQuery(w string) app.Query {
	return app.Query{Where: []app.Cond{{Op: app.Contains, Fields: []app.Field{app.FieldDescription}, Text: w}}, Limit: 1}
}

// check compares, in each company, the vocabulary stored with the one
// the stored descriptions make, and each word's total with the matches
// counted in Go; step names the moment.
func (c *termsCheck) check(step string) {
	c.t.Helper()
	err := c.st.View(bg, func(tx app.Tx) error {
		for _, co := range c.cos {
			all, _, err := tx.Resources(co, app.Query{})
			if err != nil {
				return err
			}
			want := map[string]int{}
			for _, r := range all {
				seen := map[string]bool{}
				for _, tok := range strings.FieldsFunc(app.Fold(r.Description), unicode.IsSpace) {
					if !seen[tok] && utf8.RuneCountInString(tok) >= 3 {
						seen[tok] = true
						want[tok]++
					}
				}
			}
			got := c.vocabulary(co)
			for tok, n := range want {
				if got[tok] != n {
					c.t.Errorf("%s: company %s token %q: %d in list_terms, %d resources hold it", step, co, tok, got[tok], n)
				}
			}
			for tok, n := range got {
				if _, ok := want[tok]; !ok {
					c.t.Errorf("%s: company %s token %q: %d in list_terms, no resource holds it", step, co, tok, n)
				}
			}
			for _, w := range termWords {
				n := 0
				for _, r := range all {
					if strings.Contains(app.Fold(r.Description), app.Fold(w)) {
						n++
					}
				}
				_, total, err := tx.Resources(co, wordQuery(w))
				if err != nil {
					return err
				}
				if total != n {
					c.t.Errorf("%s: company %s word %q: total %d, %d resources hold it", step, co, w, total, n)
				}
			}
		}
		return nil
	})
	if err != nil {
		c.t.Fatal(err)
	}
}

// vocabulary reads a company's list_terms rows.
func (c *termsCheck) vocabulary(co string) map[string]int {
	c.t.Helper()
	rows, err := c.conn.Query(bg, `SELECT token, n FROM list_terms WHERE company_id = $1 AND list = 'resources.description'`, co)
	if err != nil {
		c.t.Fatal(err)
	}
	got := map[string]int{}
	for rows.Next() {
		var tok string
		var n int
		if err := rows.Scan(&tok, &n); err != nil {
			c.t.Fatal(err)
		}
		got[tok] = n
	}
	if err := rows.Err(); err != nil {
		c.t.Fatal(err)
	}
	return got
}

// The company's vocabulary with counts (list_terms) stays the one its
// resources make, and every word's total the count of its matches, after
// puts one by one, a batch (COPY), descriptions changed and kept, deletes,
// writes rolled back (alone and in a group commit), and reads inside the
// write; the migration's SQL split of the stored texts gives the same
// vocabulary as the store's.
func TestTermsTotal(t *testing.T) {
	for _, at := range []int{20000, 3} {
		t.Run(fmt.Sprintf("written every %d tokens", at), func(t *testing.T) {
			pgstore.SetTermsAt(t, at)
			testTermsTotal(t)
		})
	}
}

func testTermsTotal(t *testing.T) {
	c := newTermsCheck(t)
	a, b := c.cos[0], c.cos[1]
	c.check("empty")

	var ids []*domain.Resource
	for i, d := range termTexts {
		r := termResource(a, fmt.Sprintf("A%d", i), d)
		ids = append(ids, r)
		if err := c.st.Update(bg, func(tx app.Tx) error { return tx.PutResource(r) }); err != nil {
			t.Fatal(err)
		}
	}
	c.check("puts one by one")

	err := c.st.Update(bg, func(tx app.Tx) error {
		bt := tx.(app.BatchTx)
		return bt.Batch(func() error {
			for i, d := range termTexts {
				if err := tx.PutResource(termResource(b, fmt.Sprintf("B%d", i), d)); err != nil {
					return err
				}
			}
			// A read in the batch writes what it holds, and the total
			// counts it.
			_, total, err := tx.Resources(b, wordQuery("vedacao"))
			if err != nil {
				return err
			}
			if total != 2 {
				return fmt.Errorf("vedacao in the batch: total %d, want 2", total)
			}
			for i := range 3 {
				if err := tx.PutResource(termResource(b, fmt.Sprintf("BB%d", i), "PAREDE DE VEDAÇÃO")); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	c.check("a batch")

	// Changed descriptions, one kept, and a read of the total inside the
	// write that changed it.
	err = c.st.Update(bg, func(tx app.Tx) error {
		ids[0].Description = "BLOCO DE CONCRETO"
		ids[1].Description = "ALVENARIA DE VEDAÇÃO COM BLOCO CERÂMICO" // as it was
		ids[2].Description = "PAREDE PAREDE VEDAÇÃO"
		for _, r := range ids[:3] {
			if err := tx.PutResource(r); err != nil {
				return err
			}
		}
		_, total, err := tx.Resources(a, wordQuery("vedacao"))
		if err != nil {
			return err
		}
		if total != 2 {
			return fmt.Errorf("vedacao after the change, in the write: total %d, want 2", total)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c.check("descriptions changed")
	// The same record put twice in one write, then read.
	err = c.st.Update(bg, func(tx app.Tx) error {
		ids[3].Description = "ALVENARIA"
		if err := tx.PutResource(ids[3]); err != nil {
			return err
		}
		ids[3].Description = "VEDAÇÃO"
		return tx.PutResource(ids[3])
	})
	if err != nil {
		t.Fatal(err)
	}
	c.check("put twice")

	err = c.st.Update(bg, func(tx app.Tx) error {
		if err := tx.DeleteResource(ids[4].ID); err != nil {
			return err
		}
		return tx.DeleteResource(ids[6].ID)
	})
	if err != nil {
		t.Fatal(err)
	}
	c.check("deletes")

	// A write that fails after its puts and deletes leaves nothing.
	errBoom := errors.New("boom")
	err = c.st.Update(bg, func(tx app.Tx) error {
		if err := tx.PutResource(termResource(a, "LOST", "ALVENARIA PERDIDA")); err != nil {
			return err
		}
		if err := tx.DeleteResource(ids[5].ID); err != nil {
			return err
		}
		ids[0].Description = "VEDAÇÃO PERDIDA"
		if err := tx.PutResource(ids[0]); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("the failing write: %v", err)
	}
	ids[0].Description = "BLOCO DE CONCRETO"
	c.check("a write rolled back")

	// Writers together (group commit), every second one failing after its
	// put: each keeps its own outcome, the failed ones leave no count.
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := termResource(a, fmt.Sprintf("G%d", i), fmt.Sprintf("ALVENARIA GRUPO%d VEDAÇÃO", i%3))
			err := c.st.Update(bg, func(tx app.Tx) error {
				if err := tx.PutResource(r); err != nil {
					return err
				}
				if i%2 == 1 {
					return errBoom
				}
				return nil
			})
			if (i%2 == 1) != errors.Is(err, errBoom) {
				t.Errorf("writer %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	c.check("writers together")

	// The migration's split of the stored texts (SQL) gives the vocabulary
	// the store kept (Go).
	before := map[string]map[string]int{a: c.vocabulary(a), b: c.vocabulary(b)}
	sql, err := os.ReadFile("migrations/0016_list_terms.sql")
	if err != nil {
		t.Fatal(err)
	}
	fill := string(sql[strings.Index(string(sql), "INSERT INTO list_terms"):])
	if _, err := c.conn.Exec(bg, `DELETE FROM list_terms`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.conn.Exec(bg, fill); err != nil {
		t.Fatal(err)
	}
	for co, want := range before {
		got := c.vocabulary(co)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("company %s: the migration builds\n%v\nthe store kept\n%v", co, got, want)
		}
	}
	c.check("rebuilt by the migration")
}

// The total of a word one token holds is the vocabulary's count (a count
// raised by hand shows in the total); a word several tokens hold is
// counted from the rows (the same change does not show).
func TestTermsTotalIsTheVocabularys(t *testing.T) {
	c := newTermsCheck(t)
	a := c.cos[0]
	err := c.st.Update(bg, func(tx app.Tx) error {
		for i, d := range []string{"ALVENARIA DE VEDAÇÃO", "ALVENARIAS", "PAREDE DE ALVENARIA"} {
			if err := tx.PutResource(termResource(a, fmt.Sprint(i), d)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	total := func(w string) int {
		var n int
		err := c.st.View(context.Background(), func(tx app.Tx) error {
			_, total, err := tx.Resources(a, wordQuery(w))
			n = total
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := total("vedacao"); got != 1 {
		t.Fatalf("vedacao: %d, want 1", got)
	}
	if got := total("alvenaria"); got != 3 {
		t.Fatalf("alvenaria: %d, want 3", got)
	}
	if _, err := c.conn.Exec(bg, `UPDATE list_terms SET n = n + 40 WHERE company_id = $1 AND token IN ('vedacao', 'alvenaria')`, a); err != nil {
		t.Fatal(err)
	}
	if got := total("vedacao"); got != 41 {
		t.Errorf("vedacao with its count raised by 40: %d, want 41 (the total is the vocabulary's)", got)
	}
	if got := total("alvenaria"); got != 3 {
		t.Errorf("alvenaria with a count raised by 40: %d, want 3 (two tokens hold it: counted)", got)
	}
}

// A database at schema 15 (before the vocabulary) with resources stored
// gets their vocabulary when this costdb opens it: the totals read from it
// are the matches, and the store keeps it from there.
func TestTermsBuiltOnUpgrade(t *testing.T) {
	url, conn := databaseAt(t, 15)
	// The rows as a costdb of schema 15 wrote them.
	const co = "c0000000000000000000000a"
	for i, d := range termTexts {
		if _, err := conn.Exec(bg, `INSERT INTO resources (company_id, id, user_id, department_id, group_id, code, second_code, description,
			type, unit, is_sicro, status, note, code_fold, code_key, description_fold, description_ci, unit_fold, unit_ci, created_at, created_at_ns)
			VALUES ($1, $2, '', '', '', $3, '', $4, 1, 'UN', false, true, '', $5, $6, $7, $4, 'un', 'un', now(), 0)`,
			co, fmt.Sprintf("r%023d", i), fmt.Sprintf("R%d", i), d, app.Fold(fmt.Sprintf("R%d", i)), app.CodeKey(app.Fold(fmt.Sprintf("R%d", i))),
			app.Fold(d)); err != nil {
			t.Fatal(err)
		}
	}
	c := &termsCheck{t: t, st: openURL(t, url, pgstore.Options{}), conn: conn, cos: []string{co}}
	if len(c.vocabulary(co)) == 0 {
		t.Fatal("no vocabulary after the upgrade")
	}
	c.check("after the upgrade")
	err := c.st.Update(bg, func(tx app.Tx) error {
		if err := tx.DeleteResource(fmt.Sprintf("r%023d", 0)); err != nil {
			return err
		}
		return tx.PutResource(termResource(co, "NEW", "ALVENARIA NOVA"))
	})
	if err != nil {
		t.Fatal(err)
	}
	c.check("written after the upgrade")
}
