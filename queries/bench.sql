-- The bench's own look at a database it may reuse (bench.holdsNights).

-- name: bench.night_files
-- The files a database of nights was built from.
SELECT path FROM files;

-- name: bench.run_events
-- Its runs: one run event each in the simulator's output.
SELECT count(*) FROM events WHERE type = 'run';
