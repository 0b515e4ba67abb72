package main

import (
	"flag"
	"io"
	"strings"
)

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
		if n := envName(f.Name); !strings.Contains(f.Usage, n) {
			f.Usage += " (env " + n + ")"
		}
	})
}

// parseFlags reads a command's flags, with the COSTDB_* variables as
// defaults, and refuses arguments left over.
func parseFlags(fs *flag.FlagSet, args []string) error {
	noteEnv(fs)
	if err := applyEnv(fs); err != nil {
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
