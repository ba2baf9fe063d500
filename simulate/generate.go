package simulate

import (
	"bufio"
	"fmt"
	"io"
	"time"
)

// Summary counts what Generate wrote.
type Summary struct {
	// Runs is the number of runs written.
	Runs int
	// Events is the number of lines (events) written.
	Events int
	// Bytes is the number of bytes written.
	Bytes int64
	// Careful and Naive count runs by the policy that answered them.
	Careful, Naive int
	// Faulted counts runs with an injected fault (scenario not baseline).
	Faulted int
	// Scenarios counts runs per scenario name.
	Scenarios map[string]int
	// First and Last are the earliest and latest event ts written.
	First, Last time.Time
}

// Generate writes opts.Runs simulated runs to w as JSON Lines and reports
// what it wrote. The output depends on opts only. Lines of overlapping runs
// are interleaved in timestamp order.
func Generate(w io.Writer, opts Options) (Summary, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Summary{}, err
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	m := newMerger(bw)
	sched := newSchedule(opts)
	s := newSim(opts)
	sum := Summary{Runs: opts.Runs, Scenarios: map[string]int{}}
	for range opts.Runs {
		p := sched.next()
		if err := m.flushBefore(p.start); err != nil {
			return sum, fmt.Errorf("simulate: write: %w", err)
		}
		out := m.alloc(p.idx)
		s.simulate(p, out)
		m.push(out)
		sum.Scenarios[p.sc.Name]++
		if p.naive {
			sum.Naive++
		} else {
			sum.Careful++
		}
		if p.sc.Class != "" {
			sum.Faulted++
		}
	}
	if err := m.flushAll(); err != nil {
		return sum, fmt.Errorf("simulate: write: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return sum, fmt.Errorf("simulate: write: %w", err)
	}
	sum.Events, sum.Bytes = m.events, m.bytes
	sum.First, sum.Last = time.UnixMilli(m.first).UTC(), time.UnixMilli(m.last).UTC()
	return sum, nil
}
