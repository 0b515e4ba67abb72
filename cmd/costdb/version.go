package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// revision is the VCS revision when the build has none of its own (a
// container build without .git): go build -ldflags "-X main.revision=…".
var revision string

// versionText says which costdb this is: the module version, the VCS
// revision (and whether the tree had changes) and time, and the Go version,
// from the build information.
func versionText() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "costdb (no build information)\n"
	}
	rev, at, modified := "unknown", "", ""
	if revision != "" {
		rev = revision
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (modified)"
			}
		}
	}
	out := fmt.Sprintf("costdb %s\nrevision: %s%s\n", bi.Main.Version, rev, modified)
	if at != "" {
		out += "commit time: " + at + "\n"
	}
	return out + "go: " + bi.GoVersion + "\n"
}

func runVersion(stdout io.Writer) {
	fmt.Fprint(stdout, versionText())
}
