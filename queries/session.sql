-- A metrics session (metrics.Session): its macros, and dropping what it built.

-- name: session.macros
-- Expressions the metric SQL repeats, defined once. TEMP: created on the
-- session's own connection, so that they exist whatever database the
-- session reads (one this build wrote, an older one, a read-only file or a
-- dashboard's private copy) and are never written into one.
--
-- grade_score: evidence grades as ordered scores, primary 3, secondary 2,
-- reprint 1, anything else (cache, unknown) 0; for an evidence event's
-- grade and for a task's min_grade alike.
CREATE OR REPLACE TEMP MACRO grade_score(grade) AS
    CASE grade WHEN 'primary' THEN 3 WHEN 'secondary' THEN 2 WHEN 'reprint' THEN 1 ELSE 0 END;
-- degraded_path: evidence reached on a degraded path, as the evidence event
-- says (path) or because its origin call used a fallback source.
CREATE OR REPLACE TEMP MACRO degraded_path(path, fallback) AS
    path = 'degraded' OR coalesce(fallback, false);

-- name: session.drop
-- The fact tables (facts_*.sql), the scope's runs and scoped_events, one
-- statement a line: metrics.Session.Close runs each whatever the others
-- did. span_facts and scoped_events are dropped as a view and as a table,
-- being one or the other.
DROP TABLE IF EXISTS call_facts;
DROP TABLE IF EXISTS run_facts;
DROP TABLE IF EXISTS chain_facts;
DROP TABLE IF EXISTS latency_facts;
DROP TABLE IF EXISTS scope_runs;
DROP VIEW IF EXISTS span_facts;
DROP TABLE IF EXISTS span_facts;
DROP VIEW IF EXISTS scoped_events;
DROP TABLE IF EXISTS scoped_events;
