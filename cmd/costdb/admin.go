package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// usersUsage is the synopsis of the account commands.
const usersUsage = `usage: costdb users list [--db PATH] [--company NAME|ID | --email EMAIL]
       costdb users add [--db PATH] --company NAME --email EMAIL [--name NAME] [--department NAME]
       costdb users reset-secret [--db PATH] --email EMAIL
       costdb users disable|enable|revoke-tokens [--db PATH] (--email EMAIL | --company NAME|ID)`

// runUsers runs "costdb users …": through the running server's admin
// listener when a server holds the database, on the database otherwise.
func runUsers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usersUsage)
		return errUsage
	}
	cmd := args[0]
	fs := newFlagSet("costdb users "+cmd, stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, usersUsage); fs.PrintDefaults() }
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL")
	email := fs.String("email", "", "the user's e-mail address")
	var company, name, dept *string
	switch cmd {
	case "add":
		company = fs.String("company", "", "company name; created when new")
		name = fs.String("name", "", "the user's name")
		dept = fs.String("department", "", "department name; created when new (default Geral)")
	case "list", "disable", "enable", "revoke-tokens":
		company = fs.String("company", "", "every user of the company (name or id)")
	case "reset-secret":
	default:
		fmt.Fprintf(stderr, "costdb users: unknown command %q\n%s\n", cmd, usersUsage)
		return errUsage
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	op, err := connect(ctx, connectOptions{DB: *db})
	if err != nil {
		return err
	}
	defer op.Close()
	sel := app.UserSelector{Email: *email}
	if company != nil {
		sel.Company = *company
	}
	enc := json.NewEncoder(stdout)
	switch cmd {
	case "add":
		u, err := op.AddUser(ctx, app.NewUserInput{Company: *company, Email: *email, Name: *name, Department: *dept})
		if err != nil {
			return describe(err)
		}
		return enc.Encode(u)
	case "list":
		users, err := op.ListUsers(ctx, sel)
		if err != nil {
			return describe(err)
		}
		for _, u := range users {
			if err := enc.Encode(u); err != nil {
				return err
			}
		}
		return nil
	case "reset-secret":
		u, err := op.ResetSecret(ctx, *email)
		if err != nil {
			return describe(err)
		}
		return enc.Encode(u)
	case "disable", "enable":
		n, err := op.SetDisabled(ctx, sel, cmd == "disable")
		if err != nil {
			return describe(err)
		}
		if sel.Email != "" {
			fmt.Fprintf(stdout, "user %s %sd\n", domain.NormalizeEmail(sel.Email), cmd)
		} else {
			fmt.Fprintf(stdout, "%d users of %s %sd\n", n, sel.Company, cmd)
		}
		return nil
	default: // revoke-tokens
		n, err := op.RevokeTokens(ctx, sel)
		if err != nil {
			return describe(err)
		}
		fmt.Fprintf(stdout, "tokens of %d users revoked\n", n)
		return nil
	}
}

// runImport runs "costdb import …". A signal (SIGTERM, SIGINT) cancels
// ctx: the reading stops within a few hundred rows, the write transaction
// rolls back, and the command says that nothing was written.
func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	err := runImportCommand(ctx, args, stdout, stderr)
	if err != nil && err != errUsage && ctx.Err() != nil {
		return fmt.Errorf("import stopped (%v): nothing was written", ctx.Err())
	}
	return err
}

func runImportCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "sinapi-changes" {
		return runImportChanges(ctx, args[1:], stdout, stderr)
	}
	if isMappingImport(args) {
		return runImportMapped(ctx, args, stdout, stderr)
	}
	if len(args) > 0 && (args[0] == "sicro-charges" || args[0] == "sinapi-charges") {
		return runImportCharges(ctx, args[0], args[1:], stdout, stderr)
	}
	if len(args) > 0 && (args[0] == "sinapi" || args[0] == "sicro") {
		return runImportBank(ctx, args[0], args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "sample" {
		fmt.Fprintln(stderr, importUsage)
		return errUsage
	}
	fs := newFlagSet("costdb import sample", stderr)
	db := fs.String("db", "./costdb.db", "bbolt database file or database URL")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	data, err := sampleData()
	if err != nil {
		return err
	}
	op, err := connect(ctx, connectOptions{DB: *db})
	if err != nil {
		return err
	}
	defer op.Close()
	sums, err := importAll(ctx, op, data)
	if err != nil {
		return describe(err)
	}
	for _, s := range sums {
		e := s.Edition
		fmt.Fprintf(stdout, "%s %s %s: %s resources, %s compositions (%s with structure)\n",
			e.Bank, e.State, e.Month, itoa(e.Resources), itoa(e.Compositions), itoa(e.Structures))
	}
	return nil
}

// describe spells out a validation error's fields for a terminal.
func describe(err error) error {
	fields := domain.ErrorFields(err)
	if len(fields) == 0 {
		return err
	}
	msg := domain.ErrorMessage(err)
	for _, f := range fields {
		if f.Field == "" { // the record as a whole, or the count of the unlisted
			msg += "\n  " + f.Message
			continue
		}
		msg += fmt.Sprintf("\n  %s: %s", f.Field, f.Message)
	}
	return fmt.Errorf("%s", msg)
}
