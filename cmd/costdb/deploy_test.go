package main

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

const repoRoot = "../../"

// commandLines are every command's flag listings (-h).
var commandLines = [][]string{
	{"serve"}, {"users", "list"}, {"users", "add"}, {"users", "reset-secret"}, {"users", "disable"},
	{"users", "enable"}, {"users", "revoke-tokens"}, {"import", "sample"}, {"import", "sinapi"},
	{"import", "sicro"}, {"backup"}, {"restore"}, {"keys", "rotate"}, {"keys", "list"}, {"healthcheck"},
}

// TestEveryVariableDocumented: every command's -h names the COSTDB_*
// variable of each setting flag, and docs/operations.md lists each.
func TestEveryVariableDocumented(t *testing.T) {
	doc, err := os.ReadFile(repoRoot + "docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	env := regexp.MustCompile(`\(env (COSTDB_[A-Z_]+)\)`)
	flagLine := regexp.MustCompile(`(?m)^  -([a-z-]+)`)
	seen := 0
	for _, cmd := range commandLines {
		_, _, help := cli(t, append(slices.Clone(cmd), "-h")...)
		flags := flagLine.FindAllStringSubmatch(help, -1)
		if len(flags) == 0 {
			t.Errorf("%v -h lists no flag:\n%s", cmd, help)
		}
		vars := map[string]bool{}
		for _, m := range env.FindAllStringSubmatch(help, -1) {
			vars[m[1]] = true
		}
		for _, f := range flags {
			v := envName(f[1])
			if argumentFlags[f[1]] {
				if vars[v] {
					t.Errorf("%v: the argument --%s has a variable", cmd, f[1])
				}
				continue
			}
			seen++
			if !vars[v] {
				t.Errorf("%v -h does not name %s for --%s", cmd, v, f[1])
			}
			if !strings.Contains(string(doc), "`"+v+"`") {
				t.Errorf("docs/operations.md does not list %s (%v --%s)", v, cmd, f[1])
			}
		}
	}
	if seen < 30 {
		t.Errorf("only %d setting flags seen", seen)
	}
}

// composeFile is the part of compose.yaml the test reads.
type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       any               `yaml:"build"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Volumes     []string          `yaml:"volumes"`
		Ports       []string          `yaml:"ports"`
		DependsOn   map[string]struct {
			Condition string `yaml:"condition"`
		} `yaml:"depends_on"`
		Healthcheck struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

// TestComposeFile parses compose.yaml: PostgreSQL with a health check, the
// schema migrated once, and two costdb servers on it that share a key file,
// wait for both, check their readiness, and take only variables costdb
// knows.
func TestComposeFile(t *testing.T) {
	b, err := os.ReadFile(repoRoot + "compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("compose.yaml does not parse: %v", err)
	}
	pg, ok := c.Services["postgres"]
	if !ok || !strings.HasPrefix(pg.Image, "postgres:") || len(pg.Healthcheck.Test) == 0 || !strings.Contains(strings.Join(pg.Healthcheck.Test, " "), "pg_isready") {
		t.Errorf("postgres service: %+v", pg)
	}
	if _, ok := pg.Environment["POSTGRES_PASSWORD"]; !ok {
		t.Error("postgres has no password")
	}
	mig, ok := c.Services["migrate"]
	if !ok || !slices.Equal(mig.Command, []string{"migrate"}) || !strings.HasPrefix(mig.Environment["COSTDB_DB"], "postgres://") {
		t.Errorf("migrate service: %+v", mig)
	}
	_, _, help := cli(t, "serve", "-h")
	var servers []string
	ports := map[string]bool{}
	keyFiles := map[string]bool{}
	for name, s := range c.Services {
		if !slices.Equal(s.Command, []string{"serve"}) {
			continue
		}
		servers = append(servers, name)
		if s.Build == nil {
			t.Errorf("%s is not built from the Dockerfile", name)
		}
		if !strings.HasPrefix(s.Environment["COSTDB_DB"], "postgres://") || !strings.Contains(s.Environment["COSTDB_DB"], "@postgres:5432/") {
			t.Errorf("%s: COSTDB_DB = %q, want the postgres service", name, s.Environment["COSTDB_DB"])
		}
		for k := range s.Environment {
			if !strings.Contains(help, "(env "+k+")") {
				t.Errorf("%s sets %s, which costdb serve does not read", name, k)
			}
		}
		if s.DependsOn["postgres"].Condition != "service_healthy" || s.DependsOn["migrate"].Condition != "service_completed_successfully" {
			t.Errorf("%s does not wait for a healthy, migrated database: %+v", name, s.DependsOn)
		}
		if !strings.Contains(strings.Join(s.Healthcheck.Test, " "), "healthcheck") {
			t.Errorf("%s has no readiness check: %v", name, s.Healthcheck.Test)
		}
		kf := s.Environment["COSTDB_SIGNING_KEY_FILE"]
		keyFiles[kf] = true
		mounted := false
		for _, v := range s.Volumes {
			vol, dir, _ := strings.Cut(v, ":")
			if _, named := c.Volumes[vol]; named && strings.HasPrefix(kf, dir+"/") {
				mounted = true
			}
		}
		if !mounted {
			t.Errorf("%s: the key file %q is not on a named volume", name, kf)
		}
		if len(s.Ports) != 1 || ports[s.Ports[0]] {
			t.Errorf("%s: ports %v (one each, distinct)", name, s.Ports)
		}
		ports[s.Ports[0]] = true
	}
	if len(servers) != 2 {
		t.Errorf("costdb servers: %v, want two", servers)
	}
	if len(keyFiles) != 1 {
		t.Errorf("the servers use different key files %v: a token of one would fail on the other", keyFiles)
	}
}

// TestDockerfile checks the Dockerfile's shape, and builds the image when
// Docker is there and can reach the base images' registries.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile(repoRoot + "Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	df := string(b)
	from := regexp.MustCompile(`(?m)^FROM `).FindAllString(df, -1)
	user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(df)
	for what, ok := range map[string]bool{
		"multi-stage (two FROM)":            len(from) >= 2,
		"static binary (CGO_ENABLED=0)":     strings.Contains(df, "CGO_ENABLED=0"),
		"a non-root USER":                   user != nil && user[1] != "root" && !strings.HasPrefix(user[1], "0"),
		"a VOLUME for the data":             strings.Contains(df, `VOLUME ["/data"]`),
		"a HEALTHCHECK on /readyz":          strings.Contains(df, "HEALTHCHECK") && strings.Contains(df, `"healthcheck"`),
		"the database in the volume":        strings.Contains(df, "COSTDB_DB=/data/costdb.db"),
		"serving on every interface inside": strings.Contains(df, "COSTDB_ADDR=0.0.0.0:8080"),
	} {
		if !ok {
			t.Errorf("Dockerfile: no %s", what)
		}
	}
	if testing.Short() {
		t.Skip("-short: the image is not built")
	}
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Skip("docker is not installed: the image build is not tested")
	}
	if err := exec.Command(docker, "info").Run(); err != nil {
		t.Skipf("docker is installed but its daemon does not answer (%v): the image build is not tested", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, docker, "build", "-t", "costdb:test", repoRoot).CombinedOutput()
	if err != nil {
		if regexp.MustCompile(`(?i)pull|registry|dial tcp|lookup .*: |TLS handshake|i/o timeout|no such host`).Match(out) {
			t.Skipf("the base images cannot be pulled here (Docker Hub / gcr.io not reachable): the image build is not tested\n%s", tail(out))
		}
		t.Fatalf("docker build: %v\n%s", err, tail(out))
	}
	if out, err := exec.Command(docker, "run", "--rm", "costdb:test", "version").CombinedOutput(); err != nil || !strings.Contains(string(out), "go: go1.") {
		t.Errorf("the image's costdb version: %v\n%s", err, out)
	}
}

func tail(b []byte) string {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// TestSystemdUnit checks the unit's hardening and that it runs serve.
func TestSystemdUnit(t *testing.T) {
	b, err := os.ReadFile(repoRoot + "docs/costdb.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	for _, want := range []string{
		"ExecStart=/usr/local/bin/costdb serve", "DynamicUser=yes", "StateDirectory=costdb", "NoNewPrivileges=yes",
		"ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "CapabilityBoundingSet=", "SystemCallFilter=@system-service",
		"KillSignal=SIGTERM",
	} {
		if !strings.Contains(unit, "\n"+want+"\n") {
			t.Errorf("docs/costdb.service lacks %q", want)
		}
	}
	_, _, help := cli(t, "serve", "-h")
	for _, m := range regexp.MustCompile(`Environment=(COSTDB_[A-Z_]+)=`).FindAllStringSubmatch(unit, -1) {
		if !strings.Contains(help, "(env "+m[1]+")") {
			t.Errorf("the unit sets %s, which costdb serve does not read", m[1])
		}
	}
}
