package simulate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"text/template"
)

// Sample is one bundled sample trace file and the options that write it.
type Sample struct {
	// File is the file name inside the samples directory.
	File string
	// Options generate the file.
	Options Options
}

// Samples lists the bundled sample traces for a seed: a fault-free careful
// baseline suite and a fault-injected candidate suite answered by the
// Mixed policy, in which every scenario appears nine times (five or six
// careful, three or four naive runs).
func Samples(seed int64) []Sample {
	return []Sample{
		{"baseline.jsonl", Options{Runs: 200, Seed: seed, Suite: "baseline", Policy: Careful}},
		{"candidate.jsonl", Options{Runs: 9 * len(catalog), Seed: seed, Suite: "candidate", Faults: true, Policy: Mixed}},
	}
}

// WriteSamples writes the bundled sample traces for seed into dir (created
// if missing), together with a README.md that says how they were made.
func WriteSamples(dir string, seed int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("samples: %w", err)
	}
	var rows []sampleRow
	for _, s := range Samples(seed) {
		var buf bytes.Buffer
		sum, err := Generate(&buf, s.Options)
		if err != nil {
			return fmt.Errorf("samples %s: %w", s.File, err)
		}
		if err := os.WriteFile(filepath.Join(dir, s.File), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("samples: %w", err)
		}
		rows = append(rows, sampleRow{s, sum})
	}
	var readme bytes.Buffer
	if err := readmeTemplate.Execute(&readme, map[string]any{"Seed": seed, "Rows": rows, "Scenarios": Scenarios()}); err != nil {
		return fmt.Errorf("samples README: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), readme.Bytes(), 0o644); err != nil {
		return fmt.Errorf("samples: %w", err)
	}
	return nil
}

type sampleRow struct {
	Sample
	Sum Summary
}

var readmeTemplate = template.Must(template.New("readme").Parse(`# Sample traces

Synthetic agent traces in the faultlens trace schema v1 (JSON Lines), written by the
deterministic simulator in ` + "`simulate/`" + `. They are regenerated, byte for byte, by

    faultlens simulate --samples sample-traces --seed {{.Seed}}

which calls ` + "`simulate.WriteSamples(\"sample-traces\", {{.Seed}})`" + `. Do not edit them by hand.

| file | suite | faults | policy | runs | events | bytes |
| --- | --- | --- | --- | --- | --- | --- |
{{range .Rows}}| {{.File}} | {{.Options.Suite}} | {{.Options.Faults}} | {{.Options.Policy}} | {{.Sum.Runs}} | {{.Sum.Events}} | {{.Sum.Bytes}} |
{{end}}
- ` + "`baseline.jsonl`" + `: fault-free runs of the careful agent (` + "`careful-agent`" + `). Nearly all
  succeed; latencies jitter, a few calls meet a benign transient error and are retried after a
  backoff, and about 1% of runs meet a planner timeout (usually recovered by re-planning).
- ` + "`candidate.jsonl`" + `: every scenario below appears nine times, five or six times answered by
  the careful agent and three or four times by the naive one (` + "`naive-agent`" + `), plus nine
  fault-free ` + "`baseline`" + ` control runs.
  Some runs also meet a planner timeout that the careful agent re-plans and the naive one ignores.

Runs overlap in time and their lines are interleaved in timestamp order; about one run in eight
writes its timestamps in a non-UTC offset (same instants). Ids of calls, actions and evidence are
prefixed with their run id, so they are unique across runs and suites.

## Scenarios

The run event carries ` + "`scenario`" + ` and ` + "`fault: {class, kind, target_tool, expect: {action, terminal}}`" + `;
` + "`expect`" + ` is what a correct agent does. For ` + "`stop`" + ` the evaluator's test is that no tool call starts
after the first failed step (for the queue backlog: nothing fails, the agent waits it out).

| scenario | target tool | expect.action | expect.terminal | what happens |
| --- | --- | --- | --- | --- |
{{range .Scenarios}}| {{.Name}} | {{.TargetTool}} | {{.ExpectAction}} | {{.ExpectTerminal}} | {{.What}} |
{{end}}`))
