package cli

import "testing"

// TestCompareLimits: compare lowers DuckDB's memory limit only when the
// user set none (flag or FAULTLENS_MEMORY_LIMIT, both land in g.limits).
func TestCompareLimits(t *testing.T) {
	var g global
	if got := compareLimits(&g).limits.MemoryLimit; got != "1GB" {
		t.Errorf("default: %q, want 1GB", got)
	}
	if g.limits.MemoryLimit != "" {
		t.Errorf("the global limits changed: %q", g.limits.MemoryLimit)
	}
	g.limits.MemoryLimit = "3GB"
	if got := compareLimits(&g).limits.MemoryLimit; got != "3GB" {
		t.Errorf("explicit: %q, want 3GB", got)
	}
}
