package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/costdb/costdb/app"
	"github.com/costdb/costdb/domain"
)

// openService opens the database for an administration command.
func openService(ctx context.Context, path string) (*app.Service, func(), error) {
	st, err := openStore(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	svc, err := newService(ctx, st, app.Config{})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, func() { st.Close() }, nil
}

func runUsers(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: costdb users add|disable|enable --db PATH …")
		return errUsage
	}
	fs := flag.NewFlagSet("costdb users "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(), dbUsage)
	email := fs.String("email", "", "the user's e-mail address")
	switch args[0] {
	case "add":
		company := fs.String("company", "", "company name; created when new")
		name := fs.String("name", "", "the user's name")
		dept := fs.String("department", "", "department name; created when new (default Geral)")
		if err := fs.Parse(args[1:]); err != nil {
			return errUsage
		}
		svc, done, err := openService(ctx, *db)
		if err != nil {
			return err
		}
		defer done()
		u, err := svc.AddUser(ctx, app.NewUserInput{Company: *company, Email: *email, Name: *name, Department: *dept})
		if err != nil {
			return describe(err)
		}
		enc := json.NewEncoder(stdout)
		return enc.Encode(struct {
			UserID       string `json:"user_id"`
			CompanyID    string `json:"company_id"`
			DepartmentID string `json:"department_id"`
			Email        string `json:"email"`
			SecretToken  string `json:"secret_token"`
		}{u.User.ID, u.Company.ID, u.Department.ID, u.User.Email, u.SecretToken})
	case "disable", "enable":
		if err := fs.Parse(args[1:]); err != nil {
			return errUsage
		}
		svc, done, err := openService(ctx, *db)
		if err != nil {
			return err
		}
		defer done()
		if err := svc.SetUserDisabled(ctx, *email, args[0] == "disable"); err != nil {
			return describe(err)
		}
		fmt.Fprintf(stdout, "user %s %sd\n", domain.NormalizeEmail(*email), args[0])
		return nil
	}
	fmt.Fprintf(stderr, "costdb users: unknown command %q (add, disable, enable)\n", args[0])
	return errUsage
}

func runImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "sinapi" || args[0] == "sicro") {
		return runImportBank(ctx, args[0], args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "sample" {
		fmt.Fprintln(stderr, importUsage)
		return errUsage
	}
	fs := flag.NewFlagSet("costdb import sample", flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := fs.String("db", defaultDB(), dbUsage)
	if err := fs.Parse(args[1:]); err != nil {
		return errUsage
	}
	svc, done, err := openService(ctx, *db)
	if err != nil {
		return err
	}
	defer done()
	sums, err := importSample(ctx, svc)
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
		msg += fmt.Sprintf("\n  %s: %s", f.Field, f.Message)
	}
	return fmt.Errorf("%s", msg)
}
