package calibrate

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/faultlens/faultlens/compare"
	"github.com/faultlens/faultlens/simulate"
	"github.com/faultlens/faultlens/stats"
)

// Cell is one case at one size: how many of its pairs failed.
type Cell struct {
	Case  string
	AA    bool
	Runs  int
	Pairs int
	// Failed counts pairs where a gate failed; Refused those compare
	// refused (a refusal is neither a pass nor a detection).
	Failed, Refused int
	// Rate is Failed/Pairs with its 95% Wilson interval.
	Rate, Lo, Hi float64
	// Change is the mean observed change of the case's Watch metric.
	Change float64
	// Seeds are the baseline seeds used (the candidate of seed s uses
	// CandSeed(s)).
	Seeds []int64
	// Gates counts, per gate label, the pairs it failed.
	Gates map[string]int
	// Counts says Change is a count of runs.
	Counts bool
}

// CandSeed is the seed of the candidate suite compared with baseline seed s.
func CandSeed(s int64) int64 { return s + 1_000_003 }

// Config says what to run.
type Config struct {
	// Sizes are the runs per side.
	Sizes []int
	// Pairs is the number of seeds per cell at each size (same length as
	// Sizes).
	Pairs []int
	// FirstSeed is the first baseline seed; seeds run FirstSeed,
	// FirstSeed+1, ...
	FirstSeed int64
	// Only, when not empty, keeps the cases whose name it lists.
	Only []string
	// Workers is the number of seeds run at once (default 1).
	Workers int
	// Progress, when not nil, is told after each seed.
	Progress func(size int, seed int64)
}

// runSeeds runs the seeds of size index si on cfg.Workers goroutines,
// each seed into its own cells, then merges them in seed order so the
// result does not depend on scheduling.
func runSeeds(ctx context.Context, dir string, cases []Case, n int, cfg Config, si int, cells []Cell, sums []float64, counts []int) error {
	type part struct {
		cells  []Cell
		sums   []float64
		counts []int
		err    error
	}
	parts := make([]part, cfg.Pairs[si])
	jobs := make(chan int)
	done := make(chan struct{})
	workers := max(cfg.Workers, 1)
	for range workers {
		go func() {
			for p := range jobs {
				pt := part{cells: make([]Cell, len(cases)), sums: make([]float64, len(cases)), counts: make([]int, len(cases))}
				for i := range pt.cells {
					pt.cells[i].Gates = map[string]int{}
				}
				seed := cfg.FirstSeed + int64(p)
				pt.err = runSeed(ctx, dir, cases, n, seed, pt.cells, pt.sums, pt.counts)
				parts[p] = pt
				if cfg.Progress != nil {
					cfg.Progress(n, seed)
				}
			}
			done <- struct{}{}
		}()
	}
	for p := range parts {
		jobs <- p
	}
	close(jobs)
	for range workers {
		<-done
	}
	for _, pt := range parts {
		if pt.err != nil {
			return pt.err
		}
		for i := range cells {
			c, d := &cells[i], pt.cells[i]
			c.Pairs += d.Pairs
			c.Failed += d.Failed
			c.Refused += d.Refused
			c.Seeds = append(c.Seeds, d.Seeds...)
			for k, v := range d.Gates {
				c.Gates[k] += v
			}
			sums[i] += pt.sums[i]
			counts[i] += pt.counts[i]
		}
	}
	return nil
}

// Run measures every case at every size.
func Run(ctx context.Context, cases []Case, cfg Config) ([]Cell, error) {
	if len(cfg.Pairs) != len(cfg.Sizes) {
		return nil, fmt.Errorf("calibrate: %d sizes but %d pair counts", len(cfg.Sizes), len(cfg.Pairs))
	}
	if len(cfg.Only) > 0 {
		cases = slices.DeleteFunc(slices.Clone(cases), func(c Case) bool { return !slices.Contains(cfg.Only, c.Name) })
	}
	dir, err := os.MkdirTemp("", "faultlens-calibrate-")
	if err != nil {
		return nil, err
	}
	// Scratch files only (each night's trace file and spill directory): a
	// failure to remove them loses no result, so it is not an error.
	defer func() { _ = os.RemoveAll(dir) }()
	var cells []Cell
	for si, n := range cfg.Sizes {
		byCase := make([]Cell, len(cases))
		sums := make([]float64, len(cases))
		counts := make([]int, len(cases))
		for i, c := range cases {
			byCase[i] = Cell{Case: c.Name, AA: c.AA, Runs: n, Gates: map[string]int{}, Counts: c.Counts}
		}
		if err := runSeeds(ctx, dir, cases, n, cfg, si, byCase, sums, counts); err != nil {
			return nil, err
		}
		for i := range byCase {
			c := &byCase[i]
			c.Rate = float64(c.Failed) / float64(c.Pairs)
			iv := stats.Wilson(c.Failed, c.Pairs, 0.95)
			c.Lo, c.Hi = iv.Lo, iv.Hi
			c.Change = math.NaN()
			if counts[i] > 0 {
				c.Change = sums[i] / float64(counts[i])
			}
		}
		cells = append(cells, byCase...)
	}
	return cells, nil
}

// runSeed compares, for one seed, every case with its group's baseline,
// all suites in one in-memory database. A case with PerSeed k gets k
// candidate suites (seeds CandSeed(s), CandSeed(s)+1, ...).
func runSeed(ctx context.Context, dir string, cases []Case, n int, seed int64, cells []Cell, sums []float64, counts []int) (err error) {
	// Suites with the same options and seed are the same bytes: generate
	// each once (A/A cases under two gate settings share theirs, and so do
	// the conformance cases).
	var specs []suiteSpec
	names := map[string]string{}
	suite := func(prefix string, o simulate.Options, seed int64) string {
		key := fmt.Sprintf("%+v/%d", o, seed)
		if name, ok := names[key]; ok {
			return name
		}
		name := fmt.Sprintf("%s%02d", prefix, len(specs))
		names[key] = name
		specs = append(specs, suiteSpec{name, o, seed})
		return name
	}
	var pairs []struct {
		i          int
		base, cand string
	}
	for i, c := range cases {
		b := suite("b", c.Base, seed)
		for k := 0; k < max(c.PerSeed, 1); k++ {
			pairs = append(pairs, struct {
				i          int
				base, cand string
			}{i, b, suite("c", c.Cand, CandSeed(seed)+int64(k))})
		}
	}
	nt, err := openNight(ctx, dir, n, specs)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := nt.close(); err == nil {
			err = cerr
		}
	}()
	for _, p := range pairs {
		c := cases[p.i]
		gates := c.Gates
		if gates == nil {
			gates = compare.DefaultGates()
		}
		out, err := nt.compare(ctx, p.base, p.cand, gates, c.Watch)
		if err != nil {
			return err
		}
		cell := &cells[p.i]
		cell.Pairs++
		if !slices.Contains(cell.Seeds, seed) {
			cell.Seeds = append(cell.Seeds, seed)
		}
		switch {
		case out.Refused:
			cell.Refused++
		case out.Failed:
			cell.Failed++
		}
		for _, l := range out.Gates {
			cell.Gates[l]++
		}
		if !math.IsNaN(out.Change) {
			sums[p.i] += out.Change
			counts[p.i]++
		}
	}
	return nil
}
