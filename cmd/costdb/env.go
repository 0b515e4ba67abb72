package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// argumentFlags name what one command acts on, not how costdb is set up:
// they have no environment variable, so that a variable left in a shell
// never picks a user, a file or --force for a command.
var argumentFlags = map[string]bool{
	"email": true, "company": true, "name": true, "department": true,
	"state": true, "states": true, "month": true, "regime": true, "dry-run": true,
	"out": true, "from": true, "force": true,
}

// newFlagSet returns a flag set of an operator command.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// envName is the environment variable of a flag: COSTDB_ and the flag's
// name in capitals, dashes as underscores.
func envName(flagName string) string {
	return "COSTDB_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// noteEnv adds "(env COSTDB_…)" to the usage of every flag that lacks it,
// so that -h lists the variables.
func noteEnv(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if argumentFlags[f.Name] {
			return
		}
		if n := envName(f.Name); !strings.Contains(f.Usage, n) {
			f.Usage += " (env " + n + ")"
		}
	})
}

// parseFlags reads a command's flags, with the COSTDB_* variables as
// defaults, and refuses arguments left over.
func parseFlags(fs *flag.FlagSet, args []string) error {
	noteEnv(fs)
	if err := applySettingsEnv(fs); err != nil {
		fs.Usage()
		return err
	}
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	return nil
}

// applySettingsEnv sets each flag but the arguments from COSTDB_<NAME>
// when that variable is set.
func applySettingsEnv(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if argumentFlags[f.Name] || err != nil {
			return
		}
		name := envName(f.Name)
		if v, ok := os.LookupEnv(name); ok {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %v", name, v, e)
			}
		}
	})
	return err
}
