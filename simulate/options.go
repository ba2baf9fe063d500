package simulate

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Policy says how the simulated agent reacts to failures.
type Policy int

const (
	// Careful reacts as the source documents prescribe.
	Careful Policy = iota
	// Naive shows the common defects: blind retries, masked success, hidden
	// degradation, unsealed terminals and so on.
	Naive
	// Mixed picks Careful or Naive per run, deterministically, about 60/40.
	Mixed
)

// String returns the policy's flag spelling.
func (p Policy) String() string {
	switch p {
	case Careful:
		return "careful"
	case Naive:
		return "naive"
	case Mixed:
		return "mixed"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// ParsePolicy reads a policy name as written by String (case-insensitive).
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "careful":
		return Careful, nil
	case "naive":
		return Naive, nil
	case "mixed":
		return Mixed, nil
	}
	return 0, fmt.Errorf("unknown policy %q (want careful, naive or mixed)", s)
}

// DefaultStart is the instant the first simulated run starts when
// Options.Start is zero.
var DefaultStart = time.Date(2026, 11, 28, 2, 0, 0, 0, time.UTC)

// Options describe one simulated suite. The zero value of every field but
// Runs has a usable default.
type Options struct {
	// Runs is the number of runs to write; it must be positive.
	Runs int
	// Seed makes the output reproducible: the same Options give the same bytes.
	Seed int64
	// Suite names the run set; it defaults to "baseline" for fault-free
	// suites and "candidate" for fault-injected ones.
	Suite string
	// Faults injects one fault scenario into most runs (a few fault-free
	// "baseline" control runs stay in the cycle); false writes only
	// fault-free runs.
	Faults bool
	// Policy is how the agent reacts (Careful, Naive or Mixed).
	Policy Policy
	// Start is when the first run starts; DefaultStart when zero.
	Start time.Time
	// MeanGap is the mean time between run starts (exponential
	// inter-arrivals); 2s when zero. Runs last tens of seconds, so they
	// overlap and their lines interleave.
	MeanGap time.Duration
	// Scenarios restricts a fault-injected suite to these scenario names
	// (see Scenarios); all of them when empty. "baseline" may be listed.
	Scenarios []string
	// Inject plants regressions of a known size (see Injection).
	Inject Injection
}

// withDefaults validates o and fills in its defaults.
func (o Options) withDefaults() (Options, error) {
	if o.Runs <= 0 {
		return o, errors.New("simulate: Runs must be positive")
	}
	if o.Policy < Careful || o.Policy > Mixed {
		return o, fmt.Errorf("simulate: invalid policy %d", int(o.Policy))
	}
	if o.Suite == "" {
		o.Suite = "baseline"
		if o.Faults {
			o.Suite = "candidate"
		}
	}
	if o.Start.IsZero() {
		o.Start = DefaultStart
	}
	if o.MeanGap <= 0 {
		o.MeanGap = 2 * time.Second
	}
	if err := o.Inject.check(); err != nil {
		return o, err
	}
	if len(o.Scenarios) > 0 && !o.Faults {
		return o, errors.New("simulate: Scenarios needs Faults")
	}
	for _, name := range o.Scenarios {
		if lookupScenario(name) == nil {
			return o, fmt.Errorf("simulate: unknown scenario %q", name)
		}
	}
	return o, nil
}
