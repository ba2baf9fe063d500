package proxy

import (
	"fmt"
	"io"
	"strings"
)

// dryRunCalls is how many matching calls a dry run shows per sample.
const dryRunCalls = 20

// DryRun writes what the plan would inject with this seed: for each
// sample, which of the first matching calls of a run it selects.
func DryRun(w io.Writer, p *Plan, seed int64) error {
	var b strings.Builder
	fmt.Fprintf(&b, "plan %s, seed %d\n", p.Name, seed)
	if len(p.Samples) == 0 {
		b.WriteString("no samples: nothing is injected; every call is recorded\n")
	}
	for i := range p.Samples {
		s := &p.Samples[i]
		var picked []string
		for k := 1; k <= dryRunCalls; k++ {
			if s.selects(k, seed, i) {
				picked = append(picked, fmt.Sprint(k))
			}
		}
		narrow := ""
		if s.SideEffect != "" {
			narrow = ", side_effect " + s.SideEffect
		}
		fmt.Fprintf(&b, "sample %d %s: tool %q%s, fault %s%s, expect %s/%s\n", i+1, s.Name, s.Tool, narrow, s.Fault.Kind,
			faultParams(s.Fault), orDash(s.Expect.Action), orDash(s.Expect.Terminal))
		fmt.Fprintf(&b, "  of the first %d matching calls of a run: %s\n", dryRunCalls, orNone(strings.Join(picked, " ")))
	}
	if br := p.Breaker; br != nil {
		fmt.Fprintf(&b, "breaker: tool %q opens after %d failures in a row, half-opens after %d ms, %s\n", br.Tool, br.Failures, br.CooldownMs, br.Mode)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func faultParams(f Fault) string {
	var parts []string
	if f.Field != "" {
		parts = append(parts, "field "+f.Field)
	}
	if f.Kind == "timeout" || f.Kind == "queue" || f.Kind == "unknown_outcome" || f.Kind == "out_of_order" {
		parts = append(parts, fmt.Sprintf("%d ms", f.delay()))
	}
	if f.Kind == "rate_limit" {
		parts = append(parts, fmt.Sprintf("retry after %d ms", faultKinds["rate_limit"].err(f).RetryAfterMs))
	}
	if f.Keep > 0 {
		parts = append(parts, fmt.Sprintf("keep %d", f.Keep))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
