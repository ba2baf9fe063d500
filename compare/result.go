// Package compare judges a candidate run set against a baseline from their
// frozen evidence (metrics.Evidence): rate differences with Newcombe
// intervals and Fisher/z tests, latency shifts with Mann-Whitney and seeded
// bootstrap intervals, Holm–Bonferroni across everything compared, an A/A
// noise floor, a paired McNemar view, and gates read from YAML.
package compare

// ResultVersion is the version of the JSON structure of Result. Version 2
// made verdicts, gate outcomes and skip reasons enums (no sentences).
const ResultVersion = 2

// Side names one side of a comparison.
type Side struct {
	// Name is the suite or saved baseline name as given.
	Name string `json:"name"`
	// Source is "suite" (read from the input) or "saved" (a saved baseline).
	Source string `json:"source"`
	// Suite is the suite the runs belong to.
	Suite string `json:"suite"`
	// Runs counts the runs.
	Runs int `json:"runs"`
}

// Result is one whole comparison.
type Result struct {
	// ResultVersion is ResultVersion.
	ResultVersion int `json:"result_version"`
	// Baseline and Candidate are the two sides.
	Baseline  Side `json:"baseline"`
	Candidate Side `json:"candidate"`
	// Alpha is the family-wise significance level; Confidence that of the
	// intervals.
	Alpha      float64 `json:"alpha"`
	Confidence float64 `json:"confidence"`
	// Rows are every metric compared, overall (scenario "") then per scenario.
	Rows []Row `json:"rows"`
	// Paired is McNemar on success per scenario occurring on both sides.
	Paired []PairedRow `json:"paired"`
	// Gates are the gate outcomes, failed ones first.
	Gates []GateResult `json:"gates"`
	// Failed counts failed gates.
	Failed int `json:"failed"`
	// GatedTests and ExploratoryTests are the sizes of the two Holm
	// families: the gated rows whose decision rests on a test, and every
	// other row.
	GatedTests       int `json:"gated_tests"`
	ExploratoryTests int `json:"exploratory_tests"`
	// Mix says how the two sides' fault scenarios relate (see Mix).
	Mix string `json:"mix"`
	// Charts hold the data the HTML export draws.
	Charts Charts `json:"-"`

	latency map[string]latencyInput
	iters   int
}

// The two families a row belongs to.
const (
	// FamilyGated rows are named by a gate: pre-registered, tested one
	// sided in the gate's bad direction, Holm within the gated family.
	FamilyGated = "gated"
	// FamilyExploratory rows are everything else: two-sided, Holm within
	// their own family, never deciding the exit code.
	FamilyExploratory = "exploratory"
)

// Row is the comparison of one metric.
type Row struct {
	// Metric is the metric's key: a rate name ("success") or a latency key
	// "latency.<scope>.<name>.<queue|exec|wall>.<p50|p95>".
	Metric string `json:"metric"`
	// Scenario is "" for the whole run set.
	Scenario string `json:"scenario"`
	// Kind is "rate" or "latency".
	Kind string `json:"kind"`
	// BaseNum/BaseDen and CandNum/CandDen are the counts of a rate; for
	// latency the Den fields are the sample sizes and Num is 0.
	BaseNum int `json:"base_num"`
	BaseDen int `json:"base_den"`
	CandNum int `json:"cand_num"`
	CandDen int `json:"cand_den"`
	// Base and Cand are the two values (rate, or quantile in ms).
	Base *float64 `json:"base"`
	Cand *float64 `json:"cand"`
	// Diff is Cand − Base; Lo and Hi bound it (Newcombe, or bootstrap).
	Diff *float64 `json:"diff"`
	Lo   *float64 `json:"lo"`
	Hi   *float64 `json:"hi"`
	// P is the raw p-value (Fisher, z or Mann-Whitney), PAdj Holm's.
	P    *float64 `json:"p"`
	PAdj *float64 `json:"p_adj"`
	// Test names the test behind P.
	Test string `json:"test"`
	// Level is the confidence of [Lo, Hi]. Exploratory rows use
	// Confidence; a gated row's interval is two-sided at 1−2a, a the
	// Holm level its one-sided test was judged at, so its bound on the bad
	// side excludes 0 exactly when the row is significant.
	Level float64 `json:"level"`
	// Family is FamilyGated or FamilyExploratory.
	Family string `json:"family"`
	// Alternative is the tested direction: "greater", "less" (one-sided
	// gated rows) or "two-sided".
	Alternative string `json:"alternative"`
	// Significant says PAdj < Alpha within the row's family.
	Significant bool `json:"significant"`
	// Verdict is what the comparison found (see Verdict); the renderers
	// write it as words.
	Verdict Verdict `json:"verdict"`
	// TooSmall says the samples cannot show a change at Alpha.
	TooSmall bool `json:"too_small"`
	// MinDetectable is roughly the smallest change these sample sizes
	// would detect with 80% power (rate points, or ms for latency).
	MinDetectable *float64 `json:"min_detectable"`
	// Noise is the A/A band: |change| between the two halves of the
	// baseline, by run order.
	Noise *float64 `json:"noise"`
}

// PairedRow is McNemar's test on success for runs paired by scenario and
// order of occurrence.
type PairedRow struct {
	// Scenario is the paired scenario ("" for all pairs together).
	Scenario string `json:"scenario"`
	// Pairs counts pairs; OnlyBase pairs where only the baseline run
	// succeeded, OnlyCand those where only the candidate's did.
	Pairs    int     `json:"pairs"`
	OnlyBase int     `json:"only_base"`
	OnlyCand int     `json:"only_cand"`
	P        float64 `json:"p"`
	Test     string  `json:"test"`
}

// Charts is what the HTML export draws.
type Charts struct {
	// Funnel is the gate funnel rates, per side.
	Funnel []Bar
	// Latency is p50 queue and exec per stage, per side.
	Latency []Bar
	// Recovery is the share of chains recovered per error class, per side.
	Recovery []Bar
	// Grade is the share of confirmed evidence at secondary grade or better
	// per path, per side.
	Grade []Bar
}

// Bar is one labelled pair of values, baseline and candidate.
type Bar struct {
	Label      string
	Base, Cand float64
	Note       string
}

// num turns NaN and ±Inf into nil, for JSON.
func num(f float64) *float64 {
	if f != f || f > 1e300 || f < -1e300 {
		return nil
	}
	return &f
}

// val reads a *float64, NaN when nil.
func val(p *float64) float64 {
	if p == nil {
		return nan
	}
	return *p
}
