package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// TestComposeFileBothVersions: compose.yaml holds only the top-level keys
// both Compose v1 (docker-compose 1.27+, which reads files without
// "version" as the Compose Specification but refuses "name") and v2 read.
// When a docker-compose (v1) or docker compose (v2) binary is installed,
// each validates the file too.
func TestComposeFileBothVersions(t *testing.T) {
	path := repoRoot + "compose.yaml"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	if err := yaml.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	v1 := []string{"version", "services", "networks", "volumes", "secrets", "configs"}
	for k := range top {
		if !slices.Contains(v1, k) && !strings.HasPrefix(k, "x-") {
			t.Errorf("compose.yaml: top-level %q, which docker-compose 1.x refuses", k)
		}
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"docker-compose", []string{"-f", path, "config", "-q"}},
		{"docker", []string{"compose", "-f", path, "config", "-q"}},
	} {
		bin, err := exec.LookPath(c.name)
		if err != nil {
			t.Logf("%s is not installed: not validated with it", c.name)
			continue
		}
		if c.name == "docker" && exec.Command(bin, "compose", "version").Run() != nil {
			t.Logf("docker has no compose plugin: not validated with it")
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		cmd := exec.CommandContext(ctx, bin, c.args...)
		cmd.Env = append(os.Environ(), "POSTGRES_PASSWORD=test")
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("%s %s: %v\n%s", c.name, strings.Join(c.args, " "), err, out)
		}
	}
}

// TestSystemdUnitUsersAdd: the operator command the unit documents works
// without becoming the unit's dynamic user: run (as root) against the
// database a server holds, it goes through the admin listener, and the
// database keeps the owner the service gave it. No documented command
// uses `sudo -u costdb`, which cannot enter DynamicUser's
// /var/lib/private.
func TestSystemdUnitUsersAdd(t *testing.T) {
	for _, f := range []string{"docs/costdb.service", "docs/operations.md", "README.md"} {
		b, err := os.ReadFile(repoRoot + f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "sudo -u costdb") {
			t.Errorf("%s runs a command as the dynamic user (sudo -u costdb), which cannot reach its state directory", f)
		}
	}
	unit, err := os.ReadFile(repoRoot + "docs/costdb.service")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^#\s+sudo costdb (users add .*)$`).FindStringSubmatch(string(unit))
	if line == nil {
		t.Fatal("docs/costdb.service does not show `sudo costdb users add …`")
	}
	args := splitArgs(t, line[1])
	i := slices.Index(args, "--db")
	if i < 0 || args[i+1] != "/var/lib/costdb/costdb.db" {
		t.Fatalf("the documented command %q does not name the unit's database", line[1])
	}

	dir := t.TempDir()
	db := filepath.Join(dir, "costdb.db")
	_, logs := startServer(t, db, nil)
	// The service's dynamic user owns the database; the command is root.
	const dynamicUID = 61234
	if os.Geteuid() == 0 {
		if err := os.Chown(db, dynamicUID, dynamicUID); err != nil {
			t.Fatal(err)
		}
	}
	args[i+1] = db
	code, out, stderr := cli(t, args...)
	if code != 0 {
		t.Fatalf("costdb %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	var u map[string]string
	if err := json.Unmarshal([]byte(out), &u); err != nil || u["secret_token"] == "" {
		t.Fatalf("users add printed %q", out)
	}
	if !strings.Contains(logs.String(), "/admin/users/add") {
		t.Errorf("the command did not go through the admin listener; the server logged:\n%s", logs.String())
	}
	if os.Geteuid() == 0 {
		fi, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != dynamicUID {
			t.Errorf("the database's owner is now %d, want the service's %d", st.Uid, dynamicUID)
		}
	}
}

// splitArgs splits a shell command line of words and "double-quoted" words.
func splitArgs(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`"([^"]*)"|(\S+)`).FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}
