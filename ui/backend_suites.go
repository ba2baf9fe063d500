package ui

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// The backend calls of the suite picker: the suites there are, and a new
// pair to show.

type (
	// catalogMsg answers catalog request seq: every suite, newest first.
	catalogMsg struct {
		seq    int
		suites []metrics.SuiteStart
		err    error
	}
	// rescopedMsg says the session now holds suites base and cand.
	rescopedMsg struct {
		base, cand string
		err        error
	}
)

// catalog is every suite of the database, newest first.
func (b *backend) catalog(ctx context.Context) ([]metrics.SuiteStart, error) {
	var order []metrics.SuiteStart
	var err error
	if b.list != nil {
		order, err = b.list(ctx)
	} else {
		b.mu.Lock()
		order, err = metrics.SuitesByDate(ctx, b.db)
		b.mu.Unlock()
	}
	if err != nil {
		return nil, fmt.Errorf("listing the suites: %w", err)
	}
	slices.Reverse(order)
	return order, nil
}

func catalogCmd(ctx context.Context, b *backend, seq int) tea.Cmd {
	return func() tea.Msg {
		s, err := b.catalog(ctx)
		return catalogMsg{seq: seq, suites: s, err: err}
	}
}

// rescope points the session at suites base and cand: a new copy of them
// when the dashboard holds a copy of two suites (Options.Rescope), else a
// session scoped to them on the same database. The copy's release goes to
// the follower when following (it releases the snapshot it replaces),
// else to the backend.
func (b *backend) rescope(ctx context.Context, f *follower, base, cand string) error {
	b.mu.Lock()
	b.suites = []string{base, cand}
	db, reopen := b.db, b.reopen
	b.mu.Unlock()
	var release func()
	if reopen != nil {
		var err error
		if db, release, err = reopen(ctx, base, cand); err != nil {
			return fmt.Errorf("copying suites %s and %s: %w", base, cand, err)
		}
	}
	if err := b.swap(ctx, db); err != nil {
		if release != nil {
			release()
		}
		return err
	}
	if release != nil {
		if f != nil {
			f.adopt(release)
		} else {
			b.mu.Lock()
			prev := b.release
			b.release = release
			b.mu.Unlock()
			if prev != nil {
				prev()
			}
		}
	}
	return nil
}

func rescopeCmd(ctx context.Context, b *backend, f *follower, base, cand string) tea.Cmd {
	return func() tea.Msg {
		return rescopedMsg{base: base, cand: cand, err: b.rescope(ctx, f, base, cand)}
	}
}

// adopt makes release the snapshot in use, releasing the one before.
func (f *follower) adopt(release func()) {
	f.mu.Lock()
	prev := f.release
	f.release = release
	f.mu.Unlock()
	if prev != nil {
		prev()
	}
}

// reopenFunc is Options.Rescope.
type reopenFunc = func(ctx context.Context, base, cand string) (*sql.DB, func(), error)
