-- Queries of the comparison and history commands. Requires the fact tables.

-- name: compare.suites
-- Every suite with its earliest run start, in date order: the nightly
-- trend of faultlens history.
SELECT suite, min(started_at) AS first_started_at, count(*) AS runs
FROM run_facts
GROUP BY suite
ORDER BY first_started_at NULLS LAST, suite;
