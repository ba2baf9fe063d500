package otlp

import (
	"cmp"
	"slices"
	"strconv"
)

// run is one agent run found in the spans: its root span and the GenAI
// spans below it, in input order.
type run struct {
	id      string
	root    *span
	members []*span
}

// findRuns groups spans by trace and finds the runs of each trace, ordered
// by their root's start time. A run's root is an agent span (invoke_agent,
// invoke_workflow, OpenInference AGENT) with no agent span above it; in a
// trace without agent spans it is each top span (the trace root, or a span
// whose parent is not in the input) that has a GenAI span below it. Spans
// outside every run are left out.
func findRuns(spans []*span) []*run {
	var traces [][]*span
	byTrace := map[string]int{}
	for _, s := range spans {
		i, ok := byTrace[s.traceID]
		if !ok {
			i = len(traces)
			byTrace[s.traceID] = i
			traces = append(traces, nil)
		}
		traces[i] = append(traces[i], s)
	}
	var runs []*run
	for _, t := range traces {
		runs = append(runs, traceRuns(t)...)
	}
	slices.SortStableFunc(runs, func(a, b *run) int {
		return cmp.Or(a.root.start.Compare(b.root.start), cmp.Compare(a.root.order, b.root.order))
	})
	assignRunIDs(runs)
	return runs
}

// traceRuns finds the runs of one trace.
func traceRuns(trace []*span) []*run {
	children := linkParents(trace)
	roots := agentRoots(trace, len(trace))
	if len(roots) == 0 {
		for _, s := range trace {
			if s.parent == nil && hasGenAIBelow(s, children) {
				roots = append(roots, s)
			}
		}
	}
	seen := map[*span]bool{}
	runs := make([]*run, 0, len(roots))
	for _, root := range roots {
		seen[root] = true
		r := &run{root: root}
		collectMembers(root, children, seen, &r.members)
		slices.SortStableFunc(r.members, func(a, b *span) int { return cmp.Compare(a.order, b.order) })
		runs = append(runs, r)
	}
	return runs
}

// linkParents sets each span's parent within its trace and returns the
// children of each span. When span ids repeat, the first span holding an id
// is the one its children hang under.
func linkParents(trace []*span) map[*span][]*span {
	byID := make(map[string]*span, len(trace))
	for _, s := range trace {
		if _, dup := byID[s.spanID]; !dup && s.spanID != "" {
			byID[s.spanID] = s
		}
	}
	children := map[*span][]*span{}
	for _, s := range trace {
		if p := byID[s.parentID]; p != nil && p != s && s.parentID != "" {
			s.parent = p
			children[p] = append(children[p], s)
		}
	}
	return children
}

// agentRoots returns the agent spans with no agent span above them. limit
// bounds the walk up, so that a cycle of parent ids cannot loop forever.
func agentRoots(trace []*span, limit int) []*span {
	var roots []*span
	for _, s := range trace {
		if s.role != roleAgent {
			continue
		}
		top := true
		for p, n := s.parent, 0; p != nil && n < limit; p, n = p.parent, n+1 {
			if p.role == roleAgent {
				top = false
				break
			}
		}
		if top {
			roots = append(roots, s)
		}
	}
	return roots
}

// hasGenAIBelow reports whether some span under s is a GenAI span.
func hasGenAIBelow(s *span, children map[*span][]*span) bool {
	seen := map[*span]bool{s: true}
	stack := slices.Clone(children[s])
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		if c.role != roleNone {
			return true
		}
		stack = append(stack, children[c]...)
	}
	return false
}

// collectMembers appends the GenAI spans under s that no other run took.
func collectMembers(s *span, children map[*span][]*span, seen map[*span]bool, out *[]*span) {
	stack := slices.Clone(children[s])
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		if c.role != roleNone {
			*out = append(*out, c)
		}
		stack = append(stack, children[c]...)
	}
}

// assignRunIDs names each run by its trace id, adding the root span id when
// a trace holds several runs, and a counter in the unlikely case that this
// still repeats (broken or missing ids).
func assignRunIDs(runs []*run) {
	perTrace := map[string]int{}
	for _, r := range runs {
		perTrace[r.root.traceID]++
	}
	used := map[string]bool{}
	for _, r := range runs {
		id := r.root.traceID
		if id == "" {
			id = "otlp"
		}
		if (perTrace[r.root.traceID] > 1 || r.root.traceID == "") && r.root.spanID != "" {
			id += "-" + r.root.spanID
		}
		base := id
		for n := 2; used[id]; n++ {
			id = base + "-" + strconv.Itoa(n)
		}
		used[id] = true
		r.id = id
	}
}
