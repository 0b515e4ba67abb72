package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/costdb/costdb/adapters/boltstore"
	"github.com/costdb/costdb/adapters/pgstore"
	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

const migrateUsage = `usage: costdb migrate --from PATH --to postgres://…   (copy a bbolt database into PostgreSQL)
       costdb migrate [--db postgres://…]                (bring a PostgreSQL schema up to date)`

// runMigrate copies a whole bbolt database into an empty PostgreSQL
// database, in one transaction (all or nothing), and then checks that the
// destination holds as many records of each kind as the source. Without
// --from it only brings the schema of --db (COSTDB_DB) up to date, as every
// process does when it connects: a deployment runs it once before its
// servers start.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("costdb migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "the bbolt database file to copy (not changed)")
	to := fs.String("to", "", "the PostgreSQL database to copy into, a postgres:// URL; it must hold no records")
	db := fs.String("db", os.Getenv("COSTDB_DB"), "without --from: the PostgreSQL database whose schema to bring up to date (env COSTDB_DB)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 || (*from == "") != (*to == "") && *from != "" {
		fmt.Fprintln(stderr, migrateUsage)
		return errUsage
	}
	if *from == "" {
		target := *to
		if target == "" {
			target = *db
		}
		if !pgstore.IsURL(target) {
			fmt.Fprintln(stderr, migrateUsage)
			return fmt.Errorf("costdb migrate needs --from and --to, or a postgres:// --db (or COSTDB_DB) whose schema to bring up to date")
		}
		st, err := pgstore.Open(ctx, target, pgstore.Options{})
		if err != nil {
			return err
		}
		defer st.Close()
		fmt.Fprintf(stdout, "schema of %s is at version %d\n", redactDB(target), pgstore.SchemaVersion())
		return nil
	}
	if pgstore.IsURL(*from) {
		return fmt.Errorf("--from must be a bbolt file, not a URL")
	}
	if !pgstore.IsURL(*to) {
		return fmt.Errorf("--to must be a postgres:// URL")
	}
	src, err := boltstore.Open(*from, boltstore.Options{})
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := pgstore.Open(ctx, *to, pgstore.Options{})
	if err != nil {
		return err
	}
	defer dst.Close()

	before, err := dst.Counts(ctx)
	if err != nil {
		return err
	}
	for _, table := range pgstore.Tables {
		if before[table] != 0 {
			return fmt.Errorf("the destination database is not empty (%s has %d rows): costdb migrate copies into an empty database only", table, before[table])
		}
	}

	var copied map[string]int
	err = dst.Update(ctx, func(tx app.Tx) error {
		copied = map[string]int{} // the function may run again
		count := func(table string) { copied[table]++ }
		var companies, budgets []string
		banks := map[string]bool{"SINAPI": true, "SICRO3": true}
		// The walk streams the records; inside a batch (app.BatchTx) the
		// destination writes resources and compositions with COPY, a few
		// thousand at a time, as it writes bank records.
		walk := func(v boltstore.Visitor) error { return src.Walk(ctx, v) }
		if b, ok := app.Optional[app.BatchTx](tx); ok {
			walk = func(v boltstore.Visitor) error { return b.Batch(func() error { return src.Walk(ctx, v) }) }
		}
		err := walk(boltstore.Visitor{
			Setting: func(k string, v []byte) error { count("settings"); return tx.PutSetting(k, v) },
			Company: func(c *domain.Company) error {
				count("companies")
				companies = append(companies, c.ID)
				return tx.PutCompany(c)
			},
			Department: func(d *domain.Department) error {
				count("departments")
				return tx.PutDepartment(d)
			},
			User:  func(u *domain.User) error { count("users"); return tx.PutUser(u) },
			Group: func(g *domain.Group) error { count("groups"); return tx.PutGroup(g) },
			Resource: func(r *domain.Resource) error {
				count("resources")
				return tx.PutResource(r)
			},
			Composition: func(c *domain.Composition) error {
				count("compositions")
				return tx.PutComposition(c)
			},
			Edition: func(e *domain.Edition) error {
				count("editions")
				banks[e.Bank] = true
				return tx.PutEdition(e)
			},
			BankResource: func(k string, r *domain.BankResource) error {
				count("bank_resources")
				return tx.PutBankResource(k, r)
			},
			BankComposition: func(k string, c *domain.BankComposition) error {
				count("bank_compositions")
				return tx.PutBankComposition(k, c)
			},
			Budget: func(b *domain.Budget) error {
				count("budgets")
				budgets = append(budgets, b.ID)
				return tx.PutBudget(b)
			},
		})
		if err != nil {
			return err
		}
		// The records of the store's optional ports, read through them.
		return src.View(ctx, func(stx app.Tx) error { return copyOptional(stx, tx, companies, budgets, banks, count) })
	})
	if err != nil {
		return fmt.Errorf("copy: %w (nothing was written)", err)
	}

	after, err := dst.Counts(ctx)
	if err != nil {
		return err
	}
	bad := false
	for _, table := range pgstore.Tables {
		mark := "ok"
		if after[table] != copied[table] {
			mark, bad = "MISMATCH", true
		}
		fmt.Fprintf(stdout, "%-18s %8d read %8d written  %s\n", table, copied[table], after[table], mark)
	}
	if bad {
		return fmt.Errorf("the counts differ: the copy is incomplete")
	}
	fmt.Fprintf(stdout, "copied %s into %s\n", *from, redactDB(*to))
	return nil
}
