package otlp

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Contract values the mapping writes.
const (
	stagePlanning    = "planning"
	modelRolePlanner = "planner"
	modelRoleAnswer  = "answer"
	outcomeOK        = "ok"
	outcomeFailed    = "failed"
	outcomeTimeout   = "timeout"
	statusOK         = "ok"
	statusError      = "error"
	recoveryRetry    = "retry"
	defaultSuite     = "otlp"
	unknownToolName  = "unknown"
)

// Attribute keys faultlens reads beyond the GenAI and OpenInference
// conventions, for agents that state what OTLP has no place for.
const (
	keyScenario  = "faultlens.scenario"
	keyPlanValid = "faultlens.plan_valid"
)

// Ranks order a run's events before their times: the run event first, the
// terminal last.
const (
	rankRun = iota
	rankSpan
	rankTerminal
)

// pending is an event with the keys that order it within its run.
type pending struct {
	rank  int
	at    time.Time
	order int
	ev    event
}

// runMapper builds the events of one run.
type runMapper struct {
	run      *run
	suite    string
	out      []pending
	callIDs  idSet
	stageIDs idSet
	planIDs  map[*span]string
}

// mapRun returns the events of r in the order of their seq. suite is the
// --suite override ("" to take service.name, else "otlp").
func mapRun(r *run, suite string) []event {
	m := &runMapper{run: r, suite: suite, callIDs: idSet{}, stageIDs: idSet{}, planIDs: map[*span]string{}}
	m.add(rankRun, r.root.start, r.root.order, m.runEvent())
	spans := m.mapped()
	m.addStages(byRole(spans, rolePlan))
	models := byRole(spans, roleModel)
	m.addModelCalls(models)
	m.addToolCalls(byRole(spans, roleTool), models)
	t := terminalOf(r.root)
	if t == nil && !statesTerminalEvent(r) {
		t = finishTerminal(r, byEnd(models))
	}
	if t != nil {
		m.add(rankTerminal, r.root.end, r.root.order, t)
	}
	slices.SortStableFunc(m.out, func(a, b pending) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), a.at.Compare(b.at), cmp.Compare(a.order, b.order))
	})
	events := make([]event, len(m.out))
	for i, p := range m.out {
		h := p.ev.head()
		h.RunID, h.TS, h.Seq = r.id, timestamp(p.at), i+1
		events[i] = p.ev
	}
	return events
}

// add queues an event with the keys that order it.
func (m *runMapper) add(rank int, at time.Time, order int, ev event) {
	m.out = append(m.out, pending{rank: rank, at: at, order: order, ev: ev})
}

// mapped returns the spans of the run that become stage, model_call or
// tool_call events, by start time: its members, and its root when the root
// is itself such a span (a trace without agent spans).
func (m *runMapper) mapped() []*span {
	spans := slices.Clone(m.run.members)
	switch m.run.root.role {
	case rolePlan, roleModel, roleTool:
		spans = append(spans, m.run.root)
	}
	slices.SortStableFunc(spans, func(a, b *span) int {
		return cmp.Or(a.start.Compare(b.start), cmp.Compare(a.order, b.order))
	})
	return spans
}

// runEvent maps the run's root span.
func (m *runMapper) runEvent() *runEvent {
	root := m.run.root
	ev := &runEvent{
		header:         header{Type: typeRun},
		Suite:          cmp.Or(m.suite, attrStr(root.resource, "service.name"), defaultSuite),
		Scenario:       cmp.Or(attrStr(root.attrs, keyScenario, "scenario"), attrStr(root.resource, keyScenario, "scenario")),
		StartedAt:      timestamp(root.start),
		AgentID:        m.firstAttr(fieldAgentID),
		ConversationID: m.firstAttr(fieldConversation),
		Otel:           refOf(root),
	}
	agent := agentInfo{
		Name:    m.firstAttr(fieldAgentName),
		Version: m.firstAttr(fieldAgentVersion),
	}
	if op, name, _ := strings.Cut(strings.TrimSpace(root.name), " "); agent.Name == "" && operationRoles[strings.ToLower(op)] == roleAgent {
		// The conventions name the span "invoke_agent {gen_ai.agent.name}";
		// other agent spans ("Agent workflow") do not name the agent so.
		agent.Name = strings.TrimSpace(name)
	}
	if agent != (agentInfo{}) {
		ev.Agent = &agent
	}
	return ev
}

// firstAttr reads a field from the root span, else from the first member
// span that has it, each through its family's keys.
func (m *runMapper) firstAttr(p pick) string {
	if v := m.run.root.str(p); v != "" {
		return v
	}
	for _, s := range m.run.members {
		if v := s.str(p); v != "" {
			return v
		}
	}
	return ""
}

// addStages maps plan spans to planning stages; a later plan span in the
// same run is a further attempt at planning.
func (m *runMapper) addStages(plans []*span) {
	for i, p := range plans {
		id := m.stageIDs.claim(p.spanID, "plan-"+strconv.Itoa(i+1))
		m.planIDs[p] = id
		outcome, err := outcomeOf(p)
		ev := &stageEvent{
			header:    header{Type: typeStage},
			StageID:   id,
			Stage:     stagePlanning,
			Attempt:   i + 1,
			StartedAt: timestamp(p.start),
			EndedAt:   timestamp(p.end),
			Outcome:   outcome,
			Otel:      refOf(p),
		}
		if v, ok := attrBool(p.attrs, keyPlanValid); ok {
			ev.PlanValid = &v
		}
		if err != nil {
			ev.Failure = &failure{Category: err.category, Retryable: err.retryable, Reason: err.message}
		}
		m.add(rankSpan, p.start, p.order, ev)
	}
}

// addModelCalls maps model spans; a model call under a plan span plans.
func (m *runMapper) addModelCalls(calls []*span) {
	for _, s := range calls {
		outcome, _ := outcomeOf(s) // a model call has no failure field: the outcome only
		ev := &modelCallEvent{
			header:    header{Type: typeModelCall},
			CallID:    m.callIDs.claim(s.spanID, "model-call"),
			Role:      modelRoleAnswer,
			StartedAt: timestamp(s.start),
			EndedAt:   timestamp(s.end),
			Outcome:   outcome,
			Provider:  s.str(fieldProvider),
			Model:     s.str(fieldModel),
			Otel:      refOf(s),
		}
		if p := m.enclosingPlan(s); p != nil {
			ev.Role, ev.StageID = modelRolePlanner, m.planIDs[p]
		}
		if n, ok := s.int(fieldInputTokens); ok {
			ev.InputTokens = &n
		}
		if n, ok := s.int(fieldOutputTokens); ok {
			ev.OutputTokens = &n
		}
		m.add(rankSpan, s.start, s.order, ev)
	}
}

// enclosingPlan returns the nearest plan span above s within the run.
func (m *runMapper) enclosingPlan(s *span) *span {
	limit := len(m.run.members) + 1
	for p, n := s.parent, 0; p != nil && n < limit; p, n = p.parent, n+1 {
		if _, ok := m.planIDs[p]; ok {
			return p
		}
		if p == m.run.root {
			break
		}
	}
	return nil
}

// outcomeOf reads a span's outcome and, when it failed, why.
func outcomeOf(s *span) (string, *spanError) {
	if !s.failed {
		return outcomeOK, nil
	}
	err := classifyError(s)
	if err.category == catTimeout {
		return outcomeTimeout, err
	}
	return outcomeFailed, err
}

// byEnd returns the spans ordered by their end time, keeping input order
// among equals.
func byEnd(spans []*span) []*span {
	out := slices.Clone(spans)
	slices.SortStableFunc(out, func(a, b *span) int { return a.end.Compare(b.end) })
	return out
}

// byRole returns the spans of one role, keeping their order.
func byRole(spans []*span, r role) []*span {
	var out []*span
	for _, s := range spans {
		if s.role == r {
			out = append(out, s)
		}
	}
	return out
}

// idSet hands out ids unique within a run.
type idSet map[string]bool

// claim returns want when it is free, else fallback, else fallback (or want)
// with a counter.
func (ids idSet) claim(want, fallback string) string {
	for _, id := range []string{want, fallback} {
		if id != "" && !ids[id] {
			ids[id] = true
			return id
		}
	}
	base := cmp.Or(fallback, want)
	for n := 2; ; n++ {
		if id := base + "-" + strconv.Itoa(n); !ids[id] {
			ids[id] = true
			return id
		}
	}
}
