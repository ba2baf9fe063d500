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

-- name: scope.others
-- 1 when some event belongs to a run outside scope_runs, else 0: stops at
-- the first such event, so on a database of many nights it reads little,
-- and when the suites are all there is (the dashboard's copy of two nights)
-- it is one probe per event instead of the copy below.
SELECT count(*) FROM (SELECT 1 FROM events WHERE run_id NOT IN (SELECT run_id FROM scope_runs) LIMIT 1);

-- name: scope.view
-- Materialised once: the fact SQL reads it several times, and a view would
-- repeat the semi-join over the whole events table each time (thirty nights
-- in a database made every per-suite report scan thirty nights).
CREATE OR REPLACE TEMP TABLE scoped_events AS
SELECT * FROM events WHERE run_id IN (SELECT run_id FROM scope_runs);

-- name: scope.copy_runs
-- A dashboard's private copy (store.OpenScoped): the runs of the chosen
-- suites ({{suites}}, quoted names), read from the attached database
-- faultlens_source.
CREATE OR REPLACE TEMP TABLE copy_runs AS
SELECT DISTINCT run_id FROM faultlens_source.events WHERE type = 'run' AND suite IN ({{suites}});

-- name: scope.copy_unknown_runs
-- Only when 'unknown' is chosen: the runs without a run event (a group-by
-- over every event, which the usual choice of two nights never pays).
INSERT INTO copy_runs
SELECT run_id FROM faultlens_source.events GROUP BY run_id
HAVING count(*) FILTER (WHERE type = 'run') = 0;

-- name: scope.copy_files_of_runs
-- The files holding events of the chosen runs: two narrow columns read, so
-- that the copy below, given them as literals, skips by zone map every row
-- group of the other nights instead of reading all their columns.
SELECT DISTINCT file_id FROM faultlens_source.events WHERE run_id IN (SELECT run_id FROM copy_runs) ORDER BY 1;

-- name: scope.copy_events
-- {{files}} is the list from scope.copy_files_of_runs.
INSERT INTO memory.main.events SELECT * FROM faultlens_source.events
WHERE file_id IN ({{files}}) AND run_id IN (SELECT run_id FROM copy_runs);

-- name: scope.copy_all_events
INSERT INTO memory.main.events SELECT * FROM faultlens_source.events;

-- name: scope.copy_files
-- Every file (a few rows per night), but only the rejected lines of the
-- files the copied events came from.
INSERT INTO memory.main.files SELECT * FROM faultlens_source.files;

-- name: scope.copy_rejected
INSERT INTO memory.main.rejected_lines SELECT * FROM faultlens_source.rejected_lines
WHERE file_id IN (SELECT DISTINCT file_id FROM memory.main.events);
