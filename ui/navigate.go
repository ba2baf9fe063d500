package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/faultlens/faultlens/metrics"
)

// openRun shows the detail of run id, esc returning to the current view.
func (m Model) openRun(id string) (tea.Model, tea.Cmd) {
	m.detail = detailView{loading: id}
	m.prevTab, m.tab = m.tab, viewDetail
	return m, m.startLoad(detailCmd(m.ctx, m.be, id))
}

// pairRun shows run id beside its twin in the other suite.
func (m *Model) pairRun(id string) tea.Cmd {
	return m.askPair(id, "run "+id, metrics.RunFilter{})
}

// pairFirst shows the first run matching f beside its twin.
func (m *Model) pairFirst(f metrics.RunFilter) tea.Cmd {
	return m.askPair("", "the first run behind the row", f)
}

func (m *Model) askPair(id, what string, f metrics.RunFilter) tea.Cmd {
	b, c := m.pair()
	if b == nil || c == nil {
		m.status = "pairing needs two suites (--baseline B --candidate C)"
		return nil
	}
	m.pairV.seq++
	m.pairV.what, m.pairV.p, m.pairV.err = what, nil, nil
	if m.tab != viewPair {
		m.prevTab = m.tab
	}
	m.tab = viewPair
	m.scroll[viewPair] = 0
	return m.startLoad(pairCmd(m.ctx, m.be, m.pairV.seq, id, f, b.Suite, c.Suite))
}
