package simulate

import (
	"bufio"
	"container/heap"
)

// runLines holds the rendered lines of one simulated run, in emission order
// (which is timestamp order within the run).
type runLines struct {
	idx  int
	buf  []byte
	ts   []int64 // Unix ms of each line's ts
	ends []int   // end offset of each line in buf
	next int     // first line not yet written
}

func (r *runLines) reset(idx int) {
	r.idx, r.next = idx, 0
	r.buf, r.ts, r.ends = r.buf[:0], r.ts[:0], r.ends[:0]
}

// merger interleaves the lines of overlapping runs: it keeps the runs that
// still have lines to write in a heap ordered by their next line's ts and
// writes every line older than the start of the next run to be simulated.
// Since runs start in order and no line of a run precedes its start, the
// output is in (ts, run) order overall with only the overlapping runs in
// memory.
type merger struct {
	w      *bufio.Writer
	h      lineHeap
	free   []*runLines
	events int
	bytes  int64
	first  int64
	last   int64
}

func newMerger(w *bufio.Writer) *merger {
	return &merger{w: w}
}

// alloc returns an empty runLines, reusing a written one when possible.
func (m *merger) alloc(idx int) *runLines {
	var r *runLines
	if n := len(m.free); n > 0 {
		r, m.free = m.free[n-1], m.free[:n-1]
	} else {
		r = &runLines{}
	}
	r.reset(idx)
	return r
}

// push adds a simulated run.
func (m *merger) push(r *runLines) {
	if len(r.ts) == 0 {
		m.free = append(m.free, r)
		return
	}
	heap.Push(&m.h, r)
}

// flushBefore writes every pending line whose ts is before t.
func (m *merger) flushBefore(t int64) error {
	for len(m.h) > 0 {
		r := m.h[0]
		ts := r.ts[r.next]
		if ts >= t {
			return nil
		}
		start := 0
		if r.next > 0 {
			start = r.ends[r.next-1]
		}
		end := r.ends[r.next]
		if _, err := m.w.Write(r.buf[start:end]); err != nil {
			return err
		}
		if m.events == 0 {
			m.first = ts
		}
		m.last = ts // lines leave in ts order
		m.events++
		m.bytes += int64(end - start)
		r.next++
		if r.next == len(r.ts) {
			heap.Pop(&m.h)
			m.free = append(m.free, r)
		} else {
			heap.Fix(&m.h, 0)
		}
	}
	return nil
}

// flushAll writes every pending line.
func (m *merger) flushAll() error {
	return m.flushBefore(1<<63 - 1)
}

// lineHeap orders runs by the ts of their next line, then by run index.
type lineHeap []*runLines

func (h lineHeap) Len() int { return len(h) }
func (h lineHeap) Less(i, j int) bool {
	a, b := h[i].ts[h[i].next], h[j].ts[h[j].next]
	if a != b {
		return a < b
	}
	return h[i].idx < h[j].idx
}
func (h lineHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *lineHeap) Push(x any)   { *h = append(*h, x.(*runLines)) }
func (h *lineHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return r
}
