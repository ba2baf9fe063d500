-- Queries of the history command.

-- name: compare.suites
-- Every suite with its earliest run start, in date order: the nightly
-- trend of faultlens history. Read from the run events (no fact tables), so
-- that listing thirty nights costs one scan; runs without a run event make
-- up suite 'unknown', last.
SELECT suite, min(started_at) AS first_started_at, count(DISTINCT run_id) AS runs
FROM events WHERE type = 'run'
GROUP BY suite
UNION ALL
SELECT 'unknown', NULL, count(*) FROM (
    SELECT run_id FROM events GROUP BY run_id HAVING count(*) FILTER (WHERE type = 'run') = 0)
HAVING count(*) > 0
ORDER BY first_started_at NULLS LAST, suite;
