package ui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/metrics"
)

// Messages: every result of I/O reaches Update as one of these, carrying
// the request it answers so that a late answer never replaces a newer one.
type (
	// loadedMsg answers load seq of the suites.
	loadedMsg struct {
		seq int
		ov  *overview
		err error
	}
	// runsMsg answers runs request seq.
	runsMsg struct {
		seq    int
		rows   []metrics.RunRow
		total  int64
		offset int
		err    error
	}
	// detailMsg answers detail request seq, for run id.
	detailMsg struct {
		seq int
		id  string
		d   *metrics.RunDetail
		err error
	}
	// compareMsg answers compare request seq, of base with cand.
	compareMsg struct {
		seq        int
		base, cand string
		res        *compare.Result
		err        error
	}
	// sqlMsg answers console request seq (statement query).
	sqlMsg struct {
		seq   int
		query string
		res   *sqlResult
		err   error
	}
	// histogramsMsg answers latency histogram request seq.
	histogramsMsg struct {
		seq   int
		hists []metrics.LatencyHistogram
		err   error
	}
	// breakersMsg answers breaker request seq.
	breakersMsg struct {
		seq int
		t   *metrics.BreakerTimeline
		err error
	}
	// pairMsg answers pair request seq.
	pairMsg struct {
		seq int
		p   *metrics.RunPair
		err error
	}
	// exportedMsg answers export request seq.
	exportedMsg struct {
		seq  int
		path string
		rows int
		err  error
	}
	// quitWhenIdleMsg asks the model to quit as soon as nothing is loading
	// (tests use it to read a settled final view).
	quitWhenIdleMsg struct{}
)

func loadCmd(ctx context.Context, b *backend, seq int) tea.Cmd {
	return func() tea.Msg {
		ov, err := b.load(ctx)
		return loadedMsg{seq: seq, ov: ov, err: err}
	}
}

func runsCmd(ctx context.Context, b *backend, seq int, f metrics.RunFilter, o metrics.RunSort, offset, limit int) tea.Cmd {
	return func() tea.Msg {
		rows, total, err := b.runs(ctx, f, o, offset, limit)
		return runsMsg{seq: seq, rows: rows, total: total, offset: offset, err: err}
	}
}

func detailCmd(ctx context.Context, b *backend, seq int, id string) tea.Cmd {
	return func() tea.Msg {
		d, err := b.detail(ctx, id)
		return detailMsg{seq: seq, id: id, d: d, err: err}
	}
}

func compareCmd(ctx context.Context, b *backend, seq int, base, cand string) tea.Cmd {
	return func() tea.Msg {
		res, err := b.compare(ctx, base, cand)
		return compareMsg{seq: seq, base: base, cand: cand, res: res, err: err}
	}
}

func sqlCmd(ctx context.Context, b *backend, seq int, q string) tea.Cmd {
	return func() tea.Msg {
		res, err := b.query(ctx, q)
		return sqlMsg{seq: seq, query: q, res: res, err: err}
	}
}

func histogramsCmd(ctx context.Context, b *backend, seq int) tea.Cmd {
	return func() tea.Msg {
		h, err := b.latencyHistograms(ctx)
		return histogramsMsg{seq: seq, hists: h, err: err}
	}
}

func breakersCmd(ctx context.Context, b *backend, seq int) tea.Cmd {
	return func() tea.Msg {
		t, err := b.breakers(ctx, breakerSlices, breakerEvents)
		return breakersMsg{seq: seq, t: t, err: err}
	}
}

// pairCmd pairs run id, or with id "" the first run matching f, with its
// twin in the other of the suites base and cand.
func pairCmd(ctx context.Context, b *backend, seq int, id string, f metrics.RunFilter, base, cand string) tea.Cmd {
	return func() tea.Msg {
		p, err := b.pair(ctx, id, f, base, cand)
		return pairMsg{seq: seq, p: p, err: err}
	}
}
