-- Scoping: the fact tables are built over the runs of the suites asked for
-- only, so that a report of tonight's suite in a database of thirty nights
-- reads tonight's events, not all of them.

-- name: scope.all
CREATE OR REPLACE TEMP VIEW scoped_events AS SELECT * FROM events;

-- name: scope.runs
-- {{suites}} is a list of quoted suite names. A run whose run event is
-- missing belongs to suite 'unknown'.
CREATE OR REPLACE TEMP TABLE scope_runs AS
SELECT DISTINCT run_id FROM events WHERE type = 'run' AND suite IN ({{suites}})
UNION
SELECT run_id FROM events GROUP BY run_id
HAVING 'unknown' IN ({{suites}}) AND count(*) FILTER (WHERE type = 'run') = 0;

-- name: scope.view
-- Materialised once: the fact SQL reads it several times, and a view would
-- repeat the semi-join over the whole events table each time (thirty nights
-- in a database made every per-suite report scan thirty nights).
CREATE OR REPLACE TEMP TABLE scoped_events AS
SELECT * FROM events WHERE run_id IN (SELECT run_id FROM scope_runs);
