package ui

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
	"github.com/faultlens/faultlens/textsafe"
)

// Follow makes the dashboard refresh while a database file grows (ui
// --follow, with faultlens serve writing to it). The dashboard works on a
// private in-memory copy of its suites, so following means reading them again
// when the file has changed and loading the views from it.
type Follow struct {
	// Every is how often the file is looked at.
	Every time.Duration
	// Path is the database file followed.
	Path string
	// Reopen takes a fresh snapshot of Path; the returned function
	// releases it.
	Reopen func(context.Context) (*sql.DB, func(), error)
	// Release, when not nil, releases the snapshot the dashboard started
	// on once a newer one replaces it.
	Release func()
}

// follower is the state of following, shared by every copy of the Model.
type follower struct {
	cfg Follow

	mu      sync.Mutex
	seen    fileStamp // the file as it was at the last snapshot
	release func()    // releases the snapshot in use
}

func newFollower(f *Follow) *follower {
	if f == nil || f.Reopen == nil {
		return nil
	}
	if f.Every <= 0 {
		f.Every = 2 * time.Second
	}
	// No stamp yet: the first look refreshes once, so a commit made between
	// the dashboard's first read and this moment is not missed.
	return &follower{cfg: *f, release: f.Release}
}

// fileStamp tells whether a DuckDB file changed without opening it (which
// would take a reader's lock): a commit writes the WAL, a checkpoint the
// file.
type fileStamp struct {
	size, walSize int64
	mod, walMod   time.Time
}

func stampOf(path string) fileStamp {
	var s fileStamp
	if fi, err := os.Stat(path); err == nil {
		s.size, s.mod = fi.Size(), fi.ModTime()
	}
	if fi, err := os.Stat(path + ".wal"); err == nil {
		s.walSize, s.walMod = fi.Size(), fi.ModTime()
	}
	return s
}

// Messages of following.
type (
	followTickMsg struct{}
	followedMsg   struct {
		changed bool
		loaded  loadedMsg
		at      time.Time
	}
)

func (f *follower) tick() tea.Cmd {
	return tea.Tick(f.cfg.Every, func(time.Time) tea.Msg { return followTickMsg{} })
}

// refreshCmd looks at the file and, when it changed, swaps in a new
// snapshot and loads the overview from it; all of it I/O, so in a Cmd.
func (f *follower) refreshCmd(ctx context.Context, b *backend, seq int) tea.Cmd {
	return func() tea.Msg {
		now := stampOf(f.cfg.Path)
		f.mu.Lock()
		same := now == f.seen
		f.mu.Unlock()
		if same {
			return followedMsg{}
		}
		db, release, err := f.cfg.Reopen(ctx)
		if err != nil {
			return followedMsg{changed: true, loaded: loadedMsg{seq: seq, err: err}, at: time.Now()}
		}
		if err := b.swap(ctx, db); err != nil {
			release()
			return followedMsg{changed: true, loaded: loadedMsg{seq: seq, err: err}, at: time.Now()}
		}
		f.mu.Lock()
		prev := f.release
		f.seen, f.release = now, release
		f.mu.Unlock()
		if prev != nil {
			prev()
		}
		ov, err := b.load(ctx)
		return followedMsg{changed: true, loaded: loadedMsg{seq: seq, ov: ov, err: err}, at: time.Now()}
	}
}

// close releases the snapshot in use.
func (f *follower) close() {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.release != nil {
		f.release()
		f.release = nil
	}
}

// swap points the backend at db with a new metrics session; the next
// console query opens its connection there.
func (b *backend) swap(ctx context.Context, db *sql.DB) error {
	s, err := metrics.OpenSuites(ctx, db, b.suites)
	if err != nil {
		return err
	}
	b.sqlMu.Lock()
	if b.sqlConn != nil {
		_ = b.sqlConn.Close() // the console's read-only connection to the old snapshot
		b.sqlConn = nil
	}
	b.mu.Lock()
	old := b.sess
	b.db, b.sess = db, s
	b.mu.Unlock()
	b.sqlMu.Unlock()
	if old != nil {
		_ = old.Close() // TEMP tables on the old snapshot, which its release frees anyway
	}
	return nil
}

// updateFollow handles the messages of following; ok is false for every
// other message.
func (m Model) updateFollow(msg tea.Msg) (Model, tea.Cmd, bool) {
	if m.follow == nil {
		return m, nil, false
	}
	switch msg := msg.(type) {
	case followTickMsg:
		m.loadSeq++
		return m, m.follow.refreshCmd(m.sh.ctx, m.sh.be, m.loadSeq), true
	case followedMsg:
		if !msg.changed {
			return m, m.follow.tick(), true
		}
		if msg.loaded.err != nil {
			// Keep showing what was loaded; say why it is not newer.
			m.sh.status = "follow: " + textsafe.Terminal(msg.loaded.err.Error())
			return m, m.follow.tick(), true
		}
		m.sh.loading++ // balanced by the loadedMsg path's doneLoad
		next, cmd := m.Update(msg.loaded)
		nm := next.(Model)
		nm.sh.status = fmt.Sprintf("following %s: updated %s", textsafe.Terminal(m.follow.cfg.Path), msg.at.Format("15:04:05"))
		return nm, tea.Batch(cmd, m.follow.tick()), true
	}
	return m, nil, false
}
