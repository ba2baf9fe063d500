package simulate

import (
	"math/rand/v2"
	"strconv"
)

// runPlan is what the schedule decides about one run before it is
// simulated: when it starts, which fault it gets and which policy answers.
// Everything inside the run is then drawn from the run's own random stream,
// seeded by (Seed, index), so a run does not depend on the runs before it.
type runPlan struct {
	idx          int
	id           string // run_id
	start        int64  // Unix ms
	sc           *scenario
	naive        bool
	offMin       int  // zone offset the run's timestamps are written in
	plannerFault bool // the first planning attempt fails
	causeIdx     int  // index of the run this one follows up, or -1
	cause        string
	msgIdx       int // index whose client_message_id this run carries
	inj          injected
}

// zoneOffsets are the non-UTC offsets a minority of runs are written in.
var zoneOffsets = [...]int{8 * 60, -5 * 60, 5*60 + 30, -3 * 60, 60, 9 * 60}

var causes = [...]string{"user_followup", "explicit_retry", "auto_recovery"}

// schedule hands out run plans in order. Scenarios are dealt in blocks: every
// block holds each scenario of the cycle once, in a shuffled order, so every
// scenario appears once per block; in Mixed, a scenario is given to the naive
// agent in two blocks out of every five.
type schedule struct {
	opts    Options
	rng     *rand.Rand
	cycle   []*scenario
	perm    []int
	t       int64
	idx     int
	msgRing [8]int // msgIdx of the last runs (follow-ups look back at most 5)
}

func newSchedule(o Options) *schedule {
	s := &schedule{
		opts: o,
		rng:  rand.New(rand.NewPCG(uint64(o.Seed), 0x5eed5c4ed01e)),
		t:    o.Start.UnixMilli(),
	}
	switch {
	case !o.Faults:
		s.cycle = catalog[:1]
	case len(o.Scenarios) > 0:
		for _, sc := range catalog { // catalog order, whatever the flag order
			for _, name := range o.Scenarios {
				if sc.Name == name {
					s.cycle = append(s.cycle, sc)
					break
				}
			}
		}
	default:
		s.cycle = catalog
	}
	s.perm = make([]int, len(s.cycle))
	return s
}

// next returns the plan of the next run.
func (s *schedule) next() runPlan {
	n := len(s.cycle)
	block, slot := s.idx/n, s.idx%n
	if slot == 0 {
		for i := range s.perm {
			s.perm[i] = i
		}
		s.rng.Shuffle(n, func(i, j int) { s.perm[i], s.perm[j] = s.perm[j], s.perm[i] })
	}
	sc := s.cycle[s.perm[slot]]
	p := runPlan{idx: s.idx, sc: sc, causeIdx: -1, msgIdx: s.idx}
	p.id = runID(s.opts.Suite, s.opts.Seed, s.idx)
	if s.idx > 0 {
		s.t += int64(s.rng.ExpFloat64() * float64(s.opts.MeanGap.Milliseconds()))
	}
	p.start = s.t
	switch s.opts.Policy {
	case Naive:
		p.naive = true
	case Mixed:
		p.naive = (block+s.perm[slot])%5 >= 3
	}
	p.inj = s.opts.Inject.decide(s.opts.Seed, s.idx, s.opts.Runs)
	if p.inj.naive {
		p.naive = true
	}
	if s.rng.Float64() < 0.12 {
		p.offMin = zoneOffsets[s.rng.IntN(len(zoneOffsets))]
	}
	rate := 0.01
	if s.opts.Faults {
		rate = 0.06
	}
	p.plannerFault = !sc.noPlanner && s.rng.Float64() < rate
	if s.idx > 0 && s.rng.Float64() < 0.04 {
		p.causeIdx = s.idx - 1 - s.rng.IntN(min(s.idx, 5))
		p.cause = causes[s.rng.IntN(len(causes))]
		if p.cause != "user_followup" { // a retry replays the same request
			p.msgIdx = s.msgRing[p.causeIdx%len(s.msgRing)]
		}
	}
	s.msgRing[s.idx%len(s.msgRing)] = p.msgIdx
	s.idx++
	return p
}

// runID names run idx of a suite: "<suite>-<seed>-<index>", so runs of
// different suites or seeds never share an id.
func runID(suite string, seed int64, idx int) string {
	b := make([]byte, 0, len(suite)+16)
	b = append(b, suite...)
	b = append(b, '-')
	b = strconv.AppendInt(b, seed, 10)
	b = append(b, '-')
	b = appendDigits(b, idx, 5)
	return string(b)
}
