package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/serve"
)

func init() { register(newServeCmd) }

type serveOptions struct {
	db          string
	listen      string
	suite       string
	allowRemote bool
	maxBodyMiB  int64
	idleClose   time.Duration
	refresh     time.Duration
	drain       time.Duration
	inFlightMiB int64
	queue       int
	bodyTimeout time.Duration
	maxConns    int
	tokenFile   string
	tlsCert     string
	tlsKey      string
}

// tokenEnv names the environment variable that holds the bearer token when
// --token-file is not given.
const tokenEnv = "FAULTLENS_SERVE_TOKEN"

func newServeCmd(s Streams, g *global) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve --db FILE [--listen 127.0.0.1:4318] [--suite S]",
		Short: "Receive OpenTelemetry traces over OTLP/HTTP into a database",
		Long: `Listen for OTLP/HTTP trace exports (POST /v1/traces, protobuf or JSON, gzip
or not), as every OpenTelemetry SDK's exporter sends them, and store each
request in --db through the same conversion, validation and accounting as
an OTLP file. Requests that arrive together are committed together, in one
transaction; each is acknowledged only after the commit that holds it. One
accounting line is printed per request.

A request that does not fit in --in-flight or --queue is answered 429 with
Retry-After; one that cannot be stored now (disk full, read-only or locked
database, shutting down) 503 with Retry-After. Exporters send both again.

The database is closed after --idle-close without requests, and whenever a
reader (report --db, ui --db, ...) waits for it, so readers get in under
continuous traffic (DuckDB has one writer or many readers). SIGINT or
SIGTERM stops taking connections, finishes the requests in flight,
recomputes the cached suite metrics and closes the database.

It listens on loopback only, and refuses requests whose Host or Origin is
not a loopback name, unless --allow-remote; then use a bearer token
(--token-file, or $FAULTLENS_SERVE_TOKEN) and --tls-cert/--tls-key.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), s, g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.db, "db", "", "database file to create or add to (required)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:4318", "address to listen on (host:port; port 0 picks a free one)")
	f.StringVar(&o.suite, "suite", "", "suite of the runs received (default: the service.name resource attribute)")
	f.BoolVar(&o.allowRemote, "allow-remote", false, "allow a --listen address that is not loopback (with --token-file and --tls-cert/--tls-key, or a network you trust)")
	f.Int64Var(&o.maxBodyMiB, "max-body", serve.DefaultMaxBody>>20, "largest request body in MiB, compressed and decompressed")
	f.DurationVar(&o.idleClose, "idle-close", time.Second, "close the database after this long without requests, so readers can open it (0: keep it open)")
	f.DurationVar(&o.refresh, "refresh-every", serve.DefaultRefreshEvery, "recompute the cached suite metrics at most this often while requests keep arriving")
	f.DurationVar(&o.drain, "drain", 30*time.Second, "on SIGINT/SIGTERM, how long to wait for requests in flight")
	f.Int64Var(&o.inFlightMiB, "in-flight", serve.DefaultInFlight>>20, "memory in MiB that the requests in flight may hold (4 bytes per body byte); over it, 429")
	f.IntVar(&o.queue, "queue", serve.DefaultQueue, "parsed requests that may wait for a commit; over it, 429")
	f.DurationVar(&o.bodyTimeout, "body-timeout", 30*time.Second, "how long a request body may take to arrive")
	f.IntVar(&o.maxConns, "max-conns", 1024, "connections served at once; more wait in the kernel's backlog")
	f.StringVar(&o.tokenFile, "token-file", "", "file holding the bearer token every request must carry (default: $"+tokenEnv+")")
	f.StringVar(&o.tlsCert, "tls-cert", "", "TLS certificate file (PEM), with --tls-key: serve HTTPS")
	f.StringVar(&o.tlsKey, "tls-key", "", "TLS private key file (PEM), with --tls-cert")
	requireFlags(cmd, "db")
	return cmd
}

func runServe(ctx context.Context, s Streams, g *global, o *serveOptions) error {
	if err := checkListen(o.listen, o.allowRemote); err != nil {
		return err
	}
	if o.maxBodyMiB <= 0 {
		return usagef("--max-body must be positive")
	}
	if o.refresh <= 0 {
		return usagef("--refresh-every must be positive")
	}
	if o.inFlightMiB <= 0 || o.queue <= 0 || o.maxConns <= 0 || o.bodyTimeout <= 0 {
		return usagef("--in-flight, --queue, --max-conns and --body-timeout must be positive")
	}
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	token, err := serveToken(o.tokenFile)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := &lockedWriter{w: s.Out}
	lim := g.limits
	lim.OnWait = s.waitNotice
	rc := serve.New(serve.Config{
		DB: o.db, Limits: lim, Suite: o.suite,
		MaxBody: o.maxBodyMiB << 20, IdleClose: o.idleClose, RefreshEvery: o.refresh, Log: log,
		InFlight: o.inFlightMiB << 20, Queue: o.queue, BodyTimeout: o.bodyTimeout,
		Token: token, LoopbackOnly: !o.allowRemote,
	})
	if err := rc.Open(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		_ = rc.Close(ctx) // nothing was received yet; the listen error is the one to report
		return usagef("listen on %s: %v", o.listen, err)
	}
	ln = serve.LimitListener(ln, o.maxConns)
	srv := &http.Server{Handler: rc.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	scheme := "http"
	if o.tlsCert != "" {
		scheme = "https"
	}
	log.printf("faultlens serve: listening on %s://%s%s, storing in %s\n", scheme, ln.Addr(), serve.TracesPath, o.db)
	served := make(chan error, 1)
	go func() {
		if o.tlsCert != "" {
			served <- srv.ServeTLS(ln, o.tlsCert, o.tlsKey)
			return
		}
		served <- srv.Serve(ln)
	}()
	select {
	case err = <-served: // the listener failed
	case <-ctx.Done():
		log.printf("faultlens serve: stopping: finishing requests in flight\n")
		drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.drain)
		err = srv.Shutdown(drainCtx)
		cancel()
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	if cerr := rc.Close(context.WithoutCancel(ctx)); err == nil {
		err = cerr
	}
	log.printf("faultlens serve: %s\n", rc.Totals())
	if err == nil {
		err = log.failed()
	}
	return err
}

// checkListen refuses an address that other machines could reach unless
// the user asked for it: the receiver has no authentication.
func checkListen(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--listen %s: %v", addr, err)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return usagef("--listen %s is not a loopback address: add --allow-remote (with --token-file and --tls-cert/--tls-key) to listen there", addr)
}

// serveToken reads the bearer token from file, or from $FAULTLENS_SERVE_TOKEN
// without one; "" means no token is asked for.
func serveToken(file string) (string, error) {
	if file == "" {
		return strings.TrimSpace(os.Getenv(tokenEnv)), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", usagef("--token-file: %v", err)
	}
	token := strings.TrimSpace(string(b))
	if token == "" {
		return "", usagef("--token-file %s is empty", file)
	}
	return token, nil
}

// lockedWriter serialises the lines of concurrent requests and keeps the
// first write error. A log line that cannot be written must not stop the
// receiver from storing and acknowledging requests, so the error is
// returned when serve stops rather than where it happened.
type lockedWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if err != nil && l.err == nil {
		l.err = err
	}
	return n, err
}

// printf writes one status line; its error is kept by Write.
func (l *lockedWriter) printf(format string, args ...any) {
	_, _ = fmt.Fprintf(l, format, args...)
}

// failed is the first write error, if any.
func (l *lockedWriter) failed() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return fmt.Errorf("write the serve log: %w", l.err)
	}
	return nil
}
