// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb into
// a temporary directory, postgres on a free port of 127.0.0.1 with fsync off,
// one fresh database per caller (made ahead of the test that takes it, and
// dropped after it in the background), everything removed when the test
// binary ends. A package that uses it calls Main from its TestMain:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// The server binaries are found through `pg_config --bindir`, else under
// /usr/lib/postgresql/*/bin (the Debian layout). When they are missing, tests
// that ask for a database are skipped with one line saying so, except when
// the environment says CI=true: there they fail, so that CI never passes
// without having run them. initdb refuses to run as root, so as root the
// cluster runs as the user nobody (through runuser).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// cluster is the running server of this test binary.
type cluster struct {
	bin     string // directory of the server binaries
	dir     string // temporary directory: data, socket, log
	port    int
	runAs   string // "" or the user the server runs as
	stopped bool
}

var (
	startOnce sync.Once
	running   *cluster
	startErr  error
	seq       atomic.Int64

	templatesMu sync.Mutex
	templates   = map[string]error{}

	poolsMu sync.Mutex
	pools   = map[string]*pool{} // by template ("" for an empty database)
	drops   = make(chan string, 1024)
	dropper sync.Once
	// stopping is set when the cluster stops: the pool and the dropper
	// then leave it alone.
	stopping atomic.Bool
)

// Main runs the tests of a package and then stops the cluster, when one
// was started. Use it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the cluster and removes its files. Main calls it; a TestMain
// that runs m.Run more than once calls it after the last run.
func Stop() {
	if running != nil && !running.stopped {
		stopping.Store(true)
		running.stop()
	}
}

// ErrNoServer is wrapped by the error of Available when no PostgreSQL
// server binaries are on this machine.
var ErrNoServer = errors.New("no PostgreSQL server binaries (initdb, postgres) found: install the postgresql package to run the PostgreSQL tests")

// Available starts the cluster when it is not running yet and reports why
// it cannot be used, or nil.
func Available() error {
	startOnce.Do(func() { running, startErr = start() })
	return startErr
}

// Durable reports whether the cluster syncs its commits to disk, as a real
// server does: only when the environment says COSTDB_PGTEST_DURABLE=1 (for
// benchmarks of durable writes). Tests run with fsync off.
func Durable() bool { return os.Getenv("COSTDB_PGTEST_DURABLE") == "1" }

// inCI reports whether the tests run in CI, where skipping is not allowed.
func inCI() bool { return os.Getenv("CI") == "true" }

// need skips (or, in CI, fails) the test when there is no cluster.
func need(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		if errors.Is(err, ErrNoServer) && !inCI() {
			t.Skipf("pgtest: skipped: %v", err)
		}
		t.Fatalf("pgtest: %v", err)
	}
}

// URL returns the connection URL of the database name on the cluster.
func URL(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", running.port, name)
}

// NewDatabase creates an empty database for the test and returns its URL.
// The database is dropped after the test ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return newDatabase(t, "")
}

// NewDatabaseFrom creates a database for the test as a copy of the template
// that prepare fills once per test binary (prepare is called with the
// template's URL the first time name is asked for and must close every
// connection it opened). The copy is dropped after the test ends.
func NewDatabaseFrom(t testing.TB, name string, prepare func(url string) error) string {
	t.Helper()
	need(t)
	templatesMu.Lock()
	err, done := templates[name]
	if !done {
		err = func() error {
			if err := createDatabase("tmpl_"+name, ""); err != nil {
				return err
			}
			return prepare(URL("tmpl_" + name))
		}()
		templates[name] = err
	}
	templatesMu.Unlock()
	if err != nil {
		t.Fatalf("pgtest: template %s: %v", name, err)
	}
	return newDatabase(t, "tmpl_"+name)
}

func newDatabase(t testing.TB, template string) string {
	t.Helper()
	need(t)
	name, err := take(template)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	// The database is dropped in the background once the test has ended
	// (its connections, if any are left, are ended by FORCE): the next test
	// does not wait for it.
	t.Cleanup(func() { drop(name) })
	return URL(name)
}

// A pool keeps the next copy of a template ready: from the second database
// asked of a template on, a goroutine creates one copy ahead, so that a
// test finds its database made while the previous test ran. Copies left
// in the pool when the cluster stops go with it.
type pool struct {
	ready chan created
	asked int
}

type created struct {
	name string
	err  error
}

// take returns a new database copied from template ("" for an empty one):
// the pool's ready copy, or one created now.
func take(template string) (string, error) {
	poolsMu.Lock()
	p := pools[template]
	if p == nil {
		p = &pool{}
		pools[template] = p
	}
	p.asked++
	if p.asked == 2 {
		p.ready = make(chan created)
		go p.fill(template)
	}
	ready := p.ready
	poolsMu.Unlock()
	if ready != nil {
		c := <-ready
		return c.name, c.err
	}
	name := nextName()
	return name, createDatabase(name, template)
}

// fill creates copies of template one ahead of the tests until the
// cluster stops; an error is handed to the test that asks next.
func (p *pool) fill(template string) {
	for {
		name := nextName()
		err := createDatabase(name, template)
		if stopping.Load() {
			return
		}
		p.ready <- created{name, err}
	}
}

func nextName() string { return fmt.Sprintf("t%d_%d", os.Getpid(), seq.Add(1)) }

// drop drops a test's database in the background, one at a time.
func drop(name string) {
	dropper.Do(func() {
		go func() {
			for name := range drops {
				if stopping.Load() {
					continue
				}
				if err := admin(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil && !stopping.Load() {
					fmt.Fprintf(os.Stderr, "pgtest: drop %s: %v\n", name, err)
				}
			}
		}()
	})
	drops <- name
}

func createDatabase(name, template string) error {
	q := `CREATE DATABASE ` + name
	if template != "" {
		// A template must have no other session while it is copied: the
		// template's own preparation has closed its connections by now.
		// FILE_COPY (PostgreSQL 15 and later) copies the files without
		// logging every page, which is faster for a test database.
		q += ` TEMPLATE ` + template + ` STRATEGY FILE_COPY`
	}
	var err error
	for range 50 {
		err = admin(q)
		if err != nil && strings.Contains(q, "STRATEGY") && strings.Contains(strings.ToLower(err.Error()), "strategy") {
			q = strings.TrimSuffix(q, ` STRATEGY FILE_COPY`) // an older server
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "is being accessed by other users") {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// admin runs one statement on the maintenance database.
func admin(q string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, URL("postgres"))
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	_, err = c.Exec(ctx, q)
	return err
}

// binDir finds the directory of the server binaries.
func binDir() (string, error) {
	var dirs []string
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dirs = append(dirs, strings.TrimSpace(string(out)))
	}
	debian, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(debian, func(i, j int) bool { return version(debian[i]) > version(debian[j]) })
	dirs = append(dirs, debian...)
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "postgres")) && isFile(filepath.Join(d, "pg_ctl")) {
			return d, nil
		}
	}
	return "", ErrNoServer
}

// version reads the major version out of /usr/lib/postgresql/NN/bin.
func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func start() (*cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	parent := ""
	if os.Geteuid() == 0 && isDir("/tmp") {
		// The server runs as nobody, who must reach the directory: /tmp is
		// open to every user, where $TMPDIR may not be.
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, "costdb-pgtest-")
	if err != nil {
		return nil, err
	}
	c := &cluster{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		c.runAs = "nobody"
		if err := os.Chmod(dir, 0o777); err != nil {
			return nil, err
		}
	}
	if out, err := c.cmd("initdb", "-D", c.data(), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	var lastErr error
	for range 5 {
		c.port, err = freePort()
		if err != nil {
			return nil, err
		}
		if lastErr = c.serve(true); lastErr == nil {
			return c, nil
		}
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// data is the cluster's data directory.
func (c *cluster) data() string { return filepath.Join(c.dir, "data") }

// serve starts the server on c.port; wait: until it accepts connections.
func (c *cluster) serve(wait bool) error {
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c max_connections=400 -c shared_buffers=128MB",
		c.port, c.dir)
	if !Durable() {
		opts += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
	}
	w := "-W"
	if wait {
		w = "-w"
	}
	out, err := c.cmd("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts, w, "-t", "60", "start").CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(c.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	return nil
}

// Cluster is a PostgreSQL server of one test's own, which the test may
// stop and start again (the shared cluster of NewDatabase serves every
// test of the binary and is never stopped under them). It is removed when
// the test ends.
type Cluster struct {
	c *cluster
}

// NewCluster starts a cluster of the test's own on a free port, skipped
// (failed in CI) as NewDatabase is when the server binaries are missing.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	c, err := start()
	if err != nil {
		if errors.Is(err, ErrNoServer) && !inCI() {
			t.Skipf("pgtest: skipped: %v", err)
		}
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(c.stop)
	return &Cluster{c: c}
}

// URL returns the connection URL of the database name on the cluster
// ("postgres" is there from the start).
func (cl *Cluster) URL(name string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", cl.c.port, name)
}

// Stop shuts the server down in PostgreSQL's fast mode (its connections are ended
// with admin_shutdown, 57P01) and waits until it has stopped; the data
// stays for Start.
func (cl *Cluster) Stop() error {
	out, err := cl.c.cmd("pg_ctl", "-D", cl.c.data(), "-m", "fast", "-w", "-t", "60", "stop").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v\n%s", err, out)
	}
	return nil
}

// Start starts the stopped server again on the same port. wait: return
// once it accepts connections; otherwise at once, while it is still
// starting up (connections are then refused, or answered 57P03
// cannot_connect_now).
func (cl *Cluster) Start(wait bool) error { return cl.c.serve(wait) }

// cmd runs a server binary, as c.runAs when set.
func (c *cluster) cmd(name string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, name)
	if c.runAs != "" {
		return exec.Command("runuser", append([]string{"-u", c.runAs, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

func (c *cluster) stop() {
	c.stopped = true
	if os.Getenv("COSTDB_PGTEST_CPU") == "1" {
		fmt.Fprintf(os.Stderr, "pgtest: server CPU %s\n", c.cpu())
	}
	_ = c.cmd("pg_ctl", "-D", c.data(), "-m", "immediate", "-w", "stop").Run()
	_ = os.RemoveAll(c.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// cpu reads the CPU time the server has used so far from /proc, in
// seconds of user and system time: the postmaster's, the backends' it has
// reaped, and its living children's (checkpointer, writers). The test
// binary's own CPU figures leave the server out. It assumes the usual 100
// clock ticks a second.
func (c *cluster) cpu() string {
	pidFile, err := os.ReadFile(filepath.Join(c.dir, "data", "postmaster.pid"))
	if err != nil {
		return err.Error()
	}
	pid, _, _ := strings.Cut(string(pidFile), "\n")
	pid = strings.TrimSpace(pid)
	var user, sys float64
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		stat, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		_, rest, _ := strings.Cut(string(stat), ") ")
		f := strings.Fields(rest) // from field 3 (state) on
		if len(f) < 15 || (filepath.Base(filepath.Dir(p)) != pid && f[1] != pid) {
			continue
		}
		tick := func(i int) float64 { n, _ := strconv.ParseFloat(f[i], 64); return n / 100 }
		// utime, stime, cutime, cstime are fields 14 to 17.
		user += tick(11) + tick(13)
		sys += tick(12) + tick(14)
	}
	return fmt.Sprintf("%.2fs user %.2fs system", user, sys)
}
