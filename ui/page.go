package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// page is one view of the dashboard. Each is its own type with
// Update(msg) (itself, tea.Cmd) — the root keeps the concrete value, as
// gh-dash keeps its sections — a View of its body and its own key map,
// whose short help is the status line's first part.
type page interface {
	View() string
	Keys() help.KeyMap
}

// scrolledPage is a page drawn in a viewport at an offset it keeps; the
// other pages fit their own rows to the screen (the runs page pages from
// DuckDB, the lists keep their cursor in sight).
type scrolledPage interface {
	page
	offset() int
}

// inputPage is a page with a text input that, while focused, owns the
// keyboard.
type inputPage interface {
	page
	focused() bool
}

// Messages the root sends the views.
type (
	// factsMsg says the suites were (re)loaded: views drop or refresh what
	// they read from the old ones. onScreen is whether the view is shown.
	factsMsg struct{ onScreen bool }
	// shownMsg says the view has just been switched to.
	shownMsg struct{}
	// openRunMsg asks the detail view for run id.
	openRunMsg struct{ id string }
	// askPairMsg asks the pair view for run id, or with id "" the first run
	// matching filter, beside its twin; what names it while it loads.
	askPairMsg struct {
		id, what string
		filter   metrics.RunFilter
	}
	// clickMsg is a left click at cell x of body line y (0 the line under
	// the tab bar).
	clickMsg struct{ x, y int }
	// drillMsg asks the runs view to list the runs matching filter (the
	// runs behind a compare row).
	drillMsg struct{ filter metrics.RunFilter }
)

// ownerOf is the view an answer belongs to.
func ownerOf(msg tea.Msg) (view, bool) {
	switch msg.(type) {
	case histogramsMsg:
		return viewLatency, true
	case runsMsg:
		return viewRuns, true
	case detailMsg:
		return viewDetail, true
	case compareMsg:
		return viewCompare, true
	case sqlMsg:
		return viewSQL, true
	case breakersMsg:
		return viewBreakers, true
	case pairMsg:
		return viewPair, true
	case catalogMsg:
		return viewSuites, true
	}
	return 0, false
}

// route hands msg to view v and then follows where the view asked to go.
func (m *Model) route(v view, msg tea.Msg) tea.Cmd {
	c := m.slot(v).update(msg)
	if p := m.sh.pick; p != nil {
		m.sh.pick = nil
		c = tea.Batch(c, m.sh.startLoad(rescopeCmd(m.sh.ctx, m.sh.be, m.follow, p[0], p[1])))
	}
	if n := m.sh.nav; n != nil {
		m.sh.nav = nil
		return tea.Batch(c, m.navigate(*n))
	}
	return c
}

// navigate shows the view a navigation asks for, handing it the request.
func (m *Model) navigate(n navigation) tea.Cmd {
	if n.back {
		m.help = false
		if !m.back() {
			m.sh.status = "nothing to go back to"
		}
		return nil
	}
	var msg tea.Msg
	switch n.to {
	case viewDetail:
		msg = openRunMsg{id: n.runID}
	case viewPair:
		if b, c := m.sh.pair(); b == nil || c == nil {
			m.sh.status = "pairing needs two suites (--baseline B --candidate C)"
			return nil
		}
		msg = askPairMsg{id: n.runID, what: n.what, filter: n.filter}
	case viewRuns:
		msg = drillMsg{filter: n.filter}
	default:
		return nil
	}
	m.push(n.to)
	m.tab = n.to
	return m.route(n.to, msg)
}

// broadcast hands msg to every view.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for v := range nViews {
		cmds = append(cmds, m.route(v, msg))
	}
	return tea.Batch(cmds...)
}

// page is the model of view v.
func (m Model) page(v view) page { return m.slot(v).page() }

// slot is one view's model as the root holds it: by value, in its own
// field, replaced by what its Update returns.
type slot interface {
	page() page
	update(msg tea.Msg) tea.Cmd
}

// slotOf is the slot of a view model of type P and its Update.
type slotOf[P page] struct {
	model *P
	step  func(P, tea.Msg) (P, tea.Cmd)
}

func (s slotOf[P]) page() page { return *s.model }

func (s slotOf[P]) update(msg tea.Msg) tea.Cmd {
	var c tea.Cmd
	*s.model, c = s.step(*s.model, msg)
	return c
}

func slotFor[P page](model *P, step func(P, tea.Msg) (P, tea.Cmd)) slot {
	return slotOf[P]{model: model, step: step}
}

// slot is the field of view v and its Update: the one place that says
// which model is which view, for route and page alike.
func (m *Model) slot(v view) slot {
	switch v {
	case viewOverview:
		return slotFor(&m.overview, overviewView.Update)
	case viewLatency:
		return slotFor(&m.latency, latencyView.Update)
	case viewErrors:
		return slotFor(&m.errs, errorsView.Update)
	case viewRuns:
		return slotFor(&m.runs, runsView.Update)
	case viewDetail:
		return slotFor(&m.detail, detailView.Update)
	case viewCompare:
		return slotFor(&m.cmp, compareView.Update)
	case viewSQL:
		return slotFor(&m.sql, sqlView.Update)
	case viewBreakers:
		return slotFor(&m.breakers, breakerView.Update)
	case viewSuites:
		return slotFor(&m.picker, suitesView.Update)
	}
	return slotFor(&m.pairV, pairView.Update)
}

// focused reports whether the view on screen has an input with focus.
func (m Model) focused() bool {
	p, ok := m.page(m.tab).(inputPage)
	return ok && p.focused()
}
