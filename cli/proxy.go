package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/faultlens/faultlens/proxy"
)

func init() { register(newProxyCmd) }

// proxyOptions are the flags of faultlens proxy.
type proxyOptions struct {
	plan      string
	seed      int64
	suite     string
	runID     string
	out       string
	db        string
	otlp      string
	record    string
	replay    string
	idemArg   string
	grace     time.Duration
	upstream  string
	listen    string
	dryRun    bool
	listPlans bool
}

func newProxyCmd(s Streams, g *global) *cobra.Command {
	o := &proxyOptions{}
	cmd := &cobra.Command{
		Use:   "proxy [flags] -- CMD ARGS...",
		Short: "Run an MCP server behind a fault-injecting gateway that records contract events",
		Long: `proxy starts the MCP server CMD (stdio) and passes every message between it and
the client on stdin/stdout unchanged, except the tools/call requests the fault
plan selects, which it answers as a failing server would. Every tools/call is
recorded as a contract tool_call event (--out), each run as a run event naming
the injected fault and the expected reaction. See docs/proxy.md.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.listPlans {
				return listPlans(s.Out)
			}
			return runProxy(cmd.Context(), s, g, o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.plan, "plan", "", "fault plan: a YAML file or the name of a shipped plan (faultlens proxy plans)")
	f.Int64Var(&o.seed, "seed", 1, "seed of the share selectors")
	f.StringVar(&o.suite, "suite", "proxy", "suite of the recorded runs")
	f.StringVar(&o.runID, "run-id", "", "run id of everything this process records (else the traceparent's trace id, else one per session)")
	f.StringVar(&o.out, "out", "", "append contract JSON Lines events to this file")
	f.StringVar(&o.db, "db", "", "ingest this session's events into this DuckDB file when it ends")
	f.StringVar(&o.otlp, "otlp", "", "send this session's events to an OTLP/HTTP receiver (faultlens serve) when it ends, as faultlens.* spans")
	f.StringVar(&o.record, "record", "", "keep the server's answers in this file (JSON Lines) for --replay")
	f.StringVar(&o.replay, "replay", "", "answer from a recording instead of starting a server")
	f.StringVar(&o.idemArg, "idempotency-key-arg", "idempotency_key", "tool argument that holds the idempotency key")
	f.DurationVar(&o.grace, "grace", 5*time.Second, "how long the server may take to exit after its input ends before SIGTERM (as long again before SIGKILL)")
	f.StringVar(&o.upstream, "upstream", "", "a Streamable HTTP MCP server's URL to proxy (instead of a CMD)")
	f.StringVar(&o.listen, "listen", "127.0.0.1:0", "with --upstream: the loopback address to serve on")
	f.BoolVar(&o.dryRun, "dry-run", false, "print what the plan would inject and exit")
	f.BoolVar(&o.listPlans, "list-plans", false, "list the shipped plans and exit")
	cmd.AddCommand(&cobra.Command{
		Use:   "plans",
		Short: "List the fault plans shipped with the binary",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return listPlans(s.Out) },
	})
	return cmd
}

func listPlans(w io.Writer) error {
	for _, p := range proxy.ShippedPlans() {
		if _, err := fmt.Fprintf(w, "%-32s %s\n", p.Name, p.What); err != nil {
			return err
		}
	}
	return nil
}

func runProxy(ctx context.Context, s Streams, g *global, o *proxyOptions, args []string) error {
	var plan *proxy.Plan
	if o.plan != "" {
		var err error
		if plan, err = proxy.LoadPlan(o.plan); err != nil {
			return usagef("%v", err)
		}
	}
	if o.dryRun {
		if plan == nil {
			_, err := fmt.Fprintln(s.Out, "no plan: nothing would be injected; every call would be recorded")
			return err
		}
		return proxy.DryRun(s.Out, plan, o.seed)
	}
	if o.record != "" && o.replay != "" {
		return usagef("--record and --replay exclude each other")
	}
	if o.upstream != "" && (len(args) > 0 || o.replay != "" || o.record != "") {
		return usagef("--upstream proxies a running HTTP server: give no server command, --record or --replay")
	}
	if o.replay != "" && len(args) > 0 {
		return usagef("--replay answers from the recording: give no server command")
	}
	if o.replay == "" && o.upstream == "" && len(args) == 0 {
		return usagef("no server command: faultlens proxy [flags] -- CMD ARGS...")
	}
	opt := proxy.Options{Plan: plan, Seed: o.seed, Suite: o.suite, RunID: o.runID, IdempotencyArg: o.idemArg, Log: s.Err, Grace: o.grace}
	if o.runID == "" {
		opt.SessionID = sessionID()
	}
	closeAll := func() error { return nil }
	if o.out != "" {
		f, err := os.OpenFile(o.out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return usagef("--out: %v", err)
		}
		opt.Events = f
		prev := closeAll
		closeAll = func() error { return errors.Join(prev(), f.Close()) }
	}
	var session string // this session's events alone, for --db
	if o.db != "" || o.otlp != "" {
		f, err := os.CreateTemp(g.limits.TempDir, "faultlens-proxy-*.jsonl")
		if err != nil {
			return fmt.Errorf("--db: a file for the session's events: %w", err)
		}
		session = f.Name()
		if opt.Events != nil {
			opt.Events = io.MultiWriter(opt.Events, f)
		} else {
			opt.Events = f
		}
		prev := closeAll
		closeAll = func() error { return errors.Join(prev(), f.Close()) }
		defer func() { _ = os.Remove(session) }()
	}
	if o.record != "" {
		f, err := os.Create(o.record)
		if err != nil {
			return usagef("--record: %v", err)
		}
		opt.Record = f
		prev := closeAll
		closeAll = func() error { return errors.Join(prev(), f.Close()) }
	}
	var up proxy.Upstream
	var child *proxy.Child
	if o.upstream != "" {
		if err := serveHTTPProxy(ctx, s, opt, o); err != nil {
			_ = closeAll()
			return err
		}
		if err := closeAll(); err != nil {
			return fmt.Errorf("proxy: %w", err)
		}
		return afterSession(ctx, s, g, o, session)
	}
	if o.replay != "" {
		r, err := proxy.LoadReplay(o.replay)
		if err != nil {
			return usagef("%v", err)
		}
		up = r
	} else {
		c, err := proxy.StartChild(args, s.Err)
		if err != nil {
			return usagef("%v", err)
		}
		up, child = c, c
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer func() { signal.Stop(sigs); close(sigs) }() // ends the forwarding goroutine
	go func() {
		for sig := range sigs {
			up.Signal(sig)
		}
	}()
	err := proxy.New(opt).Serve(s.In, s.Out, up)
	if cerr := closeAll(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	if err := afterSession(ctx, s, g, o, session); err != nil {
		return err
	}
	if child != nil {
		var exit *exec.ExitError
		if errors.As(child.ExitErr(), &exit) {
			return usagef("proxy: the server %s exited: %v", args[0], exit)
		}
	}
	return nil
}

// sessionID names the run of a stdio session that states no run id.
func sessionID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "proxy-" + hex.EncodeToString(b[:])
}

// afterSession ingests the session's events (--db) and sends them
// (--otlp).
func afterSession(ctx context.Context, s Streams, g *global, o *proxyOptions, session string) error {
	if err := ingestSession(ctx, s, g, o.db, session); err != nil {
		return err
	}
	return sendOTLP(ctx, s, g, o.otlp, session)
}

// ingestSession ingests the session's events into db (nothing when either
// is empty). stdout belongs to the protocol, even after it: the accounting
// goes to stderr.
func ingestSession(ctx context.Context, s Streams, g *global, db, session string) error {
	if db == "" || session == "" {
		return nil
	}
	quiet := Streams{In: s.In, Out: s.Err, Err: s.Err}
	return runIngest(ctx, quiet, g, &ingestOptions{db: db, paths: []string{session}})
}

// serveHTTPProxy serves the HTTP proxy on a loopback address until SIGINT
// or SIGTERM, then finishes the requests in flight and writes the runs.
func serveHTTPProxy(ctx context.Context, s Streams, opt proxy.Options, o *proxyOptions) error {
	host, _, err := net.SplitHostPort(o.listen)
	if err != nil {
		return usagef("--listen %q: %v", o.listen, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return usagef("--listen %q: the proxy listens on loopback only (127.0.0.1, ::1, localhost)", o.listen)
	}
	h, err := proxy.NewHTTP(opt, o.upstream)
	if err != nil {
		return usagef("%v", err)
	}
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return usagef("--listen: %v", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	_, _ = fmt.Fprintf(s.Err, "faultlens proxy: listening on http://%s (upstream %s)\n", ln.Addr(), o.upstream)
	stop, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("proxy: %w", err)
	case <-stop.Done():
	}
	shut, done := context.WithTimeout(context.Background(), 5*time.Second)
	defer done()
	_ = srv.Shutdown(shut) // event streams held open are cut at the deadline
	if err := h.Close(); err != nil {
		return fmt.Errorf("proxy: %w", err)
	}
	return nil
}
