package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

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
	record    string
	replay    string
	idemArg   string
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
	f.StringVar(&o.record, "record", "", "keep the server's answers in this file (JSON Lines) for --replay")
	f.StringVar(&o.replay, "replay", "", "answer from a recording instead of starting a server")
	f.StringVar(&o.idemArg, "idempotency-key-arg", "idempotency_key", "tool argument that holds the idempotency key")
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
	if o.replay != "" && len(args) > 0 {
		return usagef("--replay answers from the recording: give no server command")
	}
	if o.replay == "" && len(args) == 0 {
		return usagef("no server command: faultlens proxy [flags] -- CMD ARGS...")
	}
	opt := proxy.Options{Plan: plan, Seed: o.seed, Suite: o.suite, RunID: o.runID, IdempotencyArg: o.idemArg, Log: s.Err}
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
	if o.db != "" {
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
		defer os.Remove(session)
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
	defer signal.Stop(sigs)
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
	if session != "" {
		// stdout belongs to the protocol, even after it: the accounting
		// goes to stderr.
		quiet := Streams{In: s.In, Out: s.Err, Err: s.Err, ErrTTY: false}
		if err := runIngest(ctx, quiet, g, &ingestOptions{db: o.db, paths: []string{session}}); err != nil {
			return err
		}
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
