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
}

func newServeCmd(s Streams, g *global) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve --db FILE [--listen 127.0.0.1:4318] [--suite S]",
		Short: "Receive OpenTelemetry traces over OTLP/HTTP into a database",
		Long: `Listen for OTLP/HTTP trace exports (POST /v1/traces, protobuf or JSON, gzip
or not), as every OpenTelemetry SDK's exporter sends them, and store each
request in --db through the same conversion, validation and accounting as
an OTLP file: one transaction per request, acknowledged only after it
committed. One accounting line is printed per request.

The database is closed after --idle-close without requests, so that
report --db and ui --db can read it between bursts (DuckDB has one writer
or many readers). SIGINT or SIGTERM stops taking connections, finishes the
requests in flight, recomputes the cached suite metrics and closes the
database.

It listens on loopback only, unless --allow-remote.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runServe(cmd.Context(), s, g, o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.db, "db", "", "database file to create or add to (required)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:4318", "address to listen on (host:port; port 0 picks a free one)")
	f.StringVar(&o.suite, "suite", "", "suite of the runs received (default: the service.name resource attribute)")
	f.BoolVar(&o.allowRemote, "allow-remote", false, "allow a --listen address that is not loopback (no authentication: trust the network)")
	f.Int64Var(&o.maxBodyMiB, "max-body", serve.DefaultMaxBody>>20, "largest request body in MiB, compressed and decompressed")
	f.DurationVar(&o.idleClose, "idle-close", time.Second, "close the database after this long without requests, so readers can open it (0: keep it open)")
	f.DurationVar(&o.refresh, "refresh-every", serve.DefaultRefreshEvery, "recompute the cached suite metrics at most this often while requests keep arriving")
	f.DurationVar(&o.drain, "drain", 30*time.Second, "on SIGINT/SIGTERM, how long to wait for requests in flight")
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
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := &lockedWriter{w: s.Out}
	lim := g.limits
	lim.OnWait = s.waitNotice
	rc := serve.New(serve.Config{
		DB: o.db, Limits: lim, Suite: o.suite,
		MaxBody: o.maxBodyMiB << 20, IdleClose: o.idleClose, RefreshEvery: o.refresh, Log: log,
	})
	if err := rc.Open(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		_ = rc.Close(ctx) // nothing was received yet; the listen error is the one to report
		return usagef("listen on %s: %v", o.listen, err)
	}
	srv := &http.Server{Handler: rc.Handler(), ReadHeaderTimeout: 10 * time.Second}
	log.printf("faultlens serve: listening on http://%s%s, storing in %s\n", ln.Addr(), serve.TracesPath, o.db)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
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
	return usagef("--listen %s is not a loopback address; the receiver has no authentication: add --allow-remote to listen there anyway", addr)
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
