-- Per run facts: the four gates, the claimed terminal and every run-level
-- judgement. Requires call_facts (facts.calls) on the same connection.

-- name: facts.runs
-- Choices where the contract is silent:
-- * A run whose run event is missing is reported under suite and scenario
--   'unknown'; a run with several run events takes the first by (ts, seq).
-- * answer_deliverable reads the claimed terminal (the first by ts, seq),
--   field by field from that one terminal even where its field is absent;
--   so do undisclosed_degradation and the "degrade" expectation (its
--   degradations and disclosed_gaps).
-- * end_to_end_ms is fractional (from microseconds), like the latencies.
-- * "stop" is observed when no tool call starts after the earliest end of a
--   failed step; a run without a failed step observes it vacuously.
-- * expectation conformance needs both parts the expectation names; an
--   expectation without terminal is judged on the action alone.
-- * grade scores: primary 3, secondary 2, reprint 1, cache 0; min_grade
--   defaults to secondary.
CREATE OR REPLACE TEMP TABLE run_facts AS
WITH terminals AS (
    -- The claimed terminal is the first by (ts, seq). Aggregated over the
    -- terminal events alone: in the pass over every event below, the sort
    -- keys were built for every event, a third of the statement's time.
    SELECT run_id,
           count(*) AS n_terminals,
           arg_min(terminal, (ts, coalesce(seq, -1))) AS claimed,
           min(ts) AS claimed_ts,
           -- arg_min_null: arg_min skips rows whose value is NULL and would
           -- read an absent field from a later terminal.
           arg_min_null(visible_chars, (ts, coalesce(seq, -1))) AS t_visible,
           arg_min_null(chunks_rejected, (ts, coalesce(seq, -1))) AS t_rejected,
           arg_min(coalesce(len(degradations), 0), (ts, coalesce(seq, -1))) AS t_degradations,
           arg_min(coalesce(disclosed_gaps, false), (ts, coalesce(seq, -1))) AS t_disclosed
    FROM scoped_events WHERE type = 'terminal' GROUP BY run_id
), per_event AS (
    -- One pass over the events for everything else that is a plain
    -- aggregate per run.
    SELECT run_id,
           max(ts) AS last_ts,
           bool_or(coalesce(plan_valid, outcome = 'ok')) FILTER (WHERE type = 'stage' AND stage = 'planning') AS any_valid,
           arg_max(outcome, ended_at) FILTER (WHERE type = 'stage' AND stage = 'generation') AS last_outcome,
           count(*) FILTER (WHERE type = 'model_call' AND role IN ('answer', 'reviewer')) AS answer_calls,
           count(*) FILTER (WHERE type = 'model_call') AS model_calls,
           min(ended_at) FILTER (WHERE type = 'stage' AND outcome <> 'ok') AS first_stage_fail,
           -- Stages with a budget and those over it (metrics.stage_rates):
           -- wall time ended − enqueued (or − started), in microseconds so
           -- that a budget missed by under a millisecond counts.
           count(*) FILTER (WHERE type = 'stage' AND budget_ms IS NOT NULL) AS budget_stages,
           count(*) FILTER (WHERE type = 'stage' AND budget_ms IS NOT NULL
               AND epoch_us(ended_at) - epoch_us(coalesce(enqueued_at, started_at)) > budget_ms * 1000) AS budget_overruns
    FROM scoped_events GROUP BY run_id
), per_run AS (
    -- With the terminal's columns; NULL (n_terminals too) without one.
    SELECT * FROM per_event LEFT JOIN terminals USING (run_id)
), run_ev AS (
    SELECT run_id, suite, coalesce(scenario, 'baseline') AS scenario, fault, agent, task,
           deadline_ms, retry_budget, started_at
    FROM scoped_events WHERE type = 'run'
    QUALIFY row_number() OVER (PARTITION BY run_id ORDER BY ts, seq NULLS FIRST) = 1
), ev AS (
    SELECT e.run_id, e.claim, e.status, e.path,
           grade_score(e.grade) AS score,
           degraded_path(e.path, c.fallback) AS degraded
    FROM scoped_events e LEFT JOIN call_facts c ON c.run_id = e.run_id AND c.call_id = e.call_id
    WHERE e.type = 'evidence'
), ev_run AS (
    -- Besides the gate, the per-run counts of confirmed evidence by path
    -- that the comparison (baseline.runs) and the evidence-grade breakdown
    -- (metrics.evidence_grade) add up, so neither reads the events again.
    -- The comparison leaves out evidence whose path is unknown (degraded
    -- NULL), the breakdown counts it as direct. Grade scores ≥ 2 are the
    -- grades primary and secondary.
    SELECT ev.run_id,
           count(DISTINCT ev.claim) FILTER (WHERE ev.status = 'confirmed'
               AND ev.score >= grade_score(coalesce(r.task.min_grade, 'secondary'))) AS claims_ok,
           bool_or(ev.status = 'confirmed' AND ev.degraded) AS confirmed_degraded,
           count(*) FILTER (WHERE ev.status = 'confirmed' AND ev.degraded) AS degraded_evidence,
           count(*) FILTER (WHERE ev.status = 'confirmed' AND ev.degraded AND ev.score >= 2) AS degraded_evidence_ok,
           count(*) FILTER (WHERE ev.status = 'confirmed' AND NOT ev.degraded) AS direct_evidence,
           count(*) FILTER (WHERE ev.status = 'confirmed' AND NOT ev.degraded AND ev.score >= 2) AS direct_evidence_ok,
           count(*) FILTER (WHERE ev.status = 'confirmed' AND ev.degraded IS TRUE) AS grade_degraded_n,
           sum(ev.score) FILTER (WHERE ev.status = 'confirmed' AND ev.degraded IS TRUE) AS grade_degraded_sum,
           count(*) FILTER (WHERE ev.status = 'confirmed' AND ev.degraded IS NOT TRUE) AS grade_direct_n,
           sum(ev.score) FILTER (WHERE ev.status = 'confirmed' AND ev.degraded IS NOT TRUE) AS grade_direct_sum
    FROM ev LEFT JOIN run_ev r USING (run_id) GROUP BY ev.run_id
), calls AS (
    SELECT run_id, count(*) AS tool_calls, count(*) FILTER (WHERE resend) AS resends,
           count(*) FILTER (WHERE invalid_resend) AS invalid_resends,
           count(DISTINCT action_id) AS actions,
           bool_or(resend) AS obs_retry, bool_or(backed_off) AS obs_backoff,
           bool_or(recovery = 'fix_args') AS obs_fix_args,
           bool_or(recovery = 'switch_source') AS obs_switch_source,
           bool_or(recovery = 'switch_tool') AS obs_switch_tool,
           bool_or(recovery = 'back_to_search') AS obs_back_to_search,
           bool_or(recovery = 'query_status') AS obs_query_status,
           count(*) FILTER (WHERE r_unknown_outcome_resend) AS unknown_outcome_resends,
           count(*) FILTER (WHERE duplicate) AS duplicates,
           count(*) FILTER (WHERE circuit_open) AS circuit_open_calls,
           count(*) FILTER (WHERE breaker_violation) AS breaker_violations,
           count(*) FILTER (WHERE r_not_retryable) AS not_retryable_resends,
           count(*) FILTER (WHERE r_category) AS category_resends,
           count(*) FILTER (WHERE r_write_without_key) AS write_without_key_resends,
           count(*) FILTER (WHERE r_before_retry_after) AS before_retry_after_resends,
           min(ended_at) FILTER (WHERE status IN ('error', 'fast_fail')) AS first_call_fail
    FROM call_facts GROUP BY run_id
), failed_step AS (
    -- The earliest end of a failed step: a tool call with status error or
    -- fast_fail, or a stage whose outcome is not ok (least skips NULLs).
    SELECT p.run_id, least(p.first_stage_fail, c.first_call_fail) AS first_fail_end
    FROM per_run p LEFT JOIN calls c USING (run_id)
), after_fail AS (
    SELECT f.run_id, count(c.call_id) AS calls_after_fail
    FROM failed_step f JOIN call_facts c ON c.run_id = f.run_id AND c.started_at > f.first_fail_end
    GROUP BY f.run_id
), gates AS (
    SELECT t.run_id,
           coalesce(r.suite, 'unknown') AS suite,
           coalesce(r.scenario, 'unknown') AS scenario,
           r.fault, r.agent, r.task, r.deadline_ms, r.retry_budget, r.started_at,
           t.any_valid AS plan_valid,
           CASE WHEN r.task IS NULL THEN NULL
                ELSE coalesce(r.task.evidence_required,
                              CASE WHEN r.task.requires_current_evidence THEN 1 ELSE 0 END) END AS evidence_needed,
           coalesce(v.claims_ok, 0) AS claims_confirmed,
           t.claimed, t.claimed_ts, coalesce(t.n_terminals, 0) AS n_terminals,
           coalesce(t.t_visible, 0) AS visible_chars, t.t_rejected,
           t.last_outcome AS generation_outcome,
           t.last_ts,
           coalesce(c.tool_calls, 0) AS tool_calls, coalesce(c.resends, 0) AS resends,
           coalesce(c.invalid_resends, 0) AS invalid_resends, coalesce(c.actions, 0) AS actions,
           coalesce(c.unknown_outcome_resends, 0) AS unknown_outcome_resends,
           coalesce(c.duplicates, 0) AS duplicates, coalesce(c.circuit_open_calls, 0) AS circuit_open_calls,
           coalesce(c.breaker_violations, 0) AS breaker_violations,
           coalesce(c.not_retryable_resends, 0) AS not_retryable_resends,
           coalesce(c.category_resends, 0) AS category_resends,
           coalesce(c.write_without_key_resends, 0) AS write_without_key_resends,
           coalesce(c.before_retry_after_resends, 0) AS before_retry_after_resends,
           t.budget_stages, t.budget_overruns,
           coalesce(v.degraded_evidence, 0) AS degraded_evidence, coalesce(v.degraded_evidence_ok, 0) AS degraded_evidence_ok,
           coalesce(v.direct_evidence, 0) AS direct_evidence, coalesce(v.direct_evidence_ok, 0) AS direct_evidence_ok,
           coalesce(v.grade_degraded_n, 0) AS grade_degraded_n, coalesce(v.grade_degraded_sum, 0) AS grade_degraded_sum,
           coalesce(v.grade_direct_n, 0) AS grade_direct_n, coalesce(v.grade_direct_sum, 0) AS grade_direct_sum,
           t.answer_calls, t.model_calls,
           coalesce(v.confirmed_degraded, false) AS confirmed_degraded,
           coalesce(t.t_degradations, 0) AS declared_degradations,
           coalesce(t.t_disclosed, false) AS disclosed_gaps,
           c.obs_retry, c.obs_backoff, c.obs_fix_args, c.obs_switch_source, c.obs_switch_tool,
           c.obs_back_to_search, c.obs_query_status,
           coalesce(a.calls_after_fail, 0) = 0 AS obs_stop
    FROM per_run t
    LEFT JOIN run_ev r USING (run_id)
    LEFT JOIN ev_run v USING (run_id)
    LEFT JOIN calls c USING (run_id)
    LEFT JOIN after_fail a USING (run_id)
), judged AS (
    SELECT *,
           CASE WHEN evidence_needed IS NULL THEN NULL
                WHEN evidence_needed = 0 THEN true
                ELSE claims_confirmed >= evidence_needed END AS evidence_satisfied,
           n_terminals > 0 AND visible_chars > 0 AND coalesce(t_rejected, 0) = 0
               AND coalesce(generation_outcome = 'ok', true) AS answer_deliverable,
           n_terminals = 1 AND last_ts <= claimed_ts AS terminal_committed,
           n_terminals > 1 OR (n_terminals > 0 AND last_ts > claimed_ts) AS seal_violation,
           -- microseconds / 1000: epoch_ms truncates each instant and
           -- would misjudge a deadline missed by less than a millisecond.
           (epoch_us(claimed_ts) - epoch_us(started_at)) / 1000 AS end_to_end_ms
    FROM gates
)
SELECT *,
       plan_valid AND evidence_satisfied AND answer_deliverable AND terminal_committed AS success,
       -- Masked: the claim is refuted (some gate false); unverified: it
       -- cannot be checked (no gate false, some unknown). Unknown is never
       -- folded into false.
       claimed = 'completed' AND (plan_valid AND evidence_satisfied AND answer_deliverable AND terminal_committed) IS FALSE AS masked_success,
       claimed = 'completed' AND (plan_valid AND evidence_satisfied AND answer_deliverable AND terminal_committed) IS NULL AS unverified_completion,
       claimed = 'completed' AND confirmed_degraded AND declared_degradations = 0 AND NOT disclosed_gaps AS undisclosed_degradation,
       plan_valid = false AND (tool_calls > 0 OR answer_calls > 0) AS zero_call_violation,
       CASE WHEN retry_budget IS NULL THEN NULL ELSE resends > retry_budget END AS retry_budget_overrun,
       CASE WHEN deadline_ms IS NULL OR claimed IS NULL OR started_at IS NULL THEN NULL
            ELSE end_to_end_ms > deadline_ms END AS deadline_overrun,
       CASE WHEN fault.expect IS NULL OR (fault.expect.action IS NULL AND fault.expect.terminal IS NULL) THEN NULL
            ELSE coalesce(CASE fault.expect.action
                     WHEN 'retry' THEN obs_retry
                     WHEN 'backoff' THEN obs_backoff
                     WHEN 'fix_args' THEN obs_fix_args
                     WHEN 'switch_source' THEN obs_switch_source
                     WHEN 'switch_tool' THEN obs_switch_tool
                     WHEN 'back_to_search' THEN obs_back_to_search
                     WHEN 'query_status' THEN obs_query_status
                     WHEN 'degrade' THEN declared_degradations > 0
                     WHEN 'stop' THEN obs_stop
                     ELSE true END, false)
                 AND (fault.expect.terminal IS NULL OR coalesce(claimed = fault.expect.terminal, false))
       END AS expectation_met
FROM judged;
