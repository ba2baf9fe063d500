-- Opening, attaching, versioning and rewriting the database file (package
-- store). Names of attached databases are fixed here, not passed in.

-- name: store.set_timezone
-- GLOBAL, so that every pooled connection sees UTC without a per-connection
-- SET (which would fail once the SQL console has locked the configuration).
SET GLOBAL TimeZone = 'UTC';

-- name: store.set_threads
SET threads = {{threads}};

-- name: store.set_memory_limit
SET memory_limit = {{limit}};

-- name: store.set_temp_directory
SET temp_directory = {{dir}};

-- name: store.set_version
-- The layout version this build writes (store.StorageVersion).
INSERT OR REPLACE INTO faultlens_meta VALUES ('schema_version', $version);

-- name: store.version_tables
-- Whether the current database has faultlens_meta, and how many tables it
-- has at all: tables without faultlens_meta are another program's.
SELECT count(*) FILTER (WHERE table_name = 'faultlens_meta'), count(*)
FROM information_schema.tables
WHERE table_catalog = current_database() AND table_schema = 'main';

-- name: store.version_value
SELECT value FROM faultlens_meta WHERE key = 'schema_version';

-- name: store.faultlens_tables
-- The tables every faultlens database has (3 when it is one).
SELECT count(*) FROM information_schema.tables
WHERE table_catalog = current_database() AND table_name IN ('events', 'files', 'rejected_lines');

-- name: store.attach_source
-- A reader's attachment (store.OpenScoped): the file under a shared lock.
ATTACH {{path}} AS faultlens_source (READ_ONLY);

-- name: store.use_source
USE faultlens_source;

-- name: store.detach_source
DETACH faultlens_source;

-- name: store.attach_db
-- A writer's attachment (store.Compact): the file under the writer's lock,
-- attached rather than opened so that it can be let go of at a chosen
-- moment while the rewritten copy is still held.
ATTACH {{path}} AS faultlens_db;

-- name: store.use_db
USE faultlens_db;

-- name: store.detach_db
DETACH faultlens_db;

-- name: store.checkpoint_db
-- Everything committed is written into the file and its WAL emptied, so no
-- WAL of the old file is left to be replayed onto the rewritten one.
CHECKPOINT faultlens_db;

-- name: store.attach_compact
-- The fresh file the database is rewritten into.
ATTACH {{path}} AS faultlens_compact;

-- name: store.copy_to_compact
-- DuckDB reuses freed blocks but never shrinks a file; a copy into a fresh
-- file holds only what is live.
COPY FROM DATABASE faultlens_db TO faultlens_compact;

-- name: store.checkpoint_compact
CHECKPOINT faultlens_compact;

-- name: store.detach_compact
DETACH faultlens_compact;

-- name: store.use_memory
-- Back to the private in-memory database, so that the attached ones can be
-- detached (the database in use cannot be).
USE memory;

-- name: store.begin
BEGIN TRANSACTION;

-- name: store.commit
COMMIT;

-- name: store.rollback
ROLLBACK;

-- name: store.table_exists
SELECT count(*) > 0 FROM information_schema.tables
WHERE table_catalog = current_database() AND table_name = $name;
