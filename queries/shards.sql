-- Reading several databases (shards: runs routed by trace id to several
-- receivers) as one (store.OpenShards). Each shard is attached in turn as
-- faultlens_source and copied into the private in-memory database, its
-- file ids moved past those of the shards before it ({{offset}}, an integer
-- the code computes), so that each files row keeps its own id. The cached
-- suite reports are not copied: each shard's cache covers its own runs, and
-- the reports of the whole are computed from the events.

-- name: shards.max_file
SELECT coalesce(max(file_id), 0) FROM memory.main.files;

-- name: shards.copy_events
INSERT INTO memory.main.events
SELECT * REPLACE (file_id + {{offset}} AS file_id) FROM faultlens_source.events;

-- name: shards.copy_files
INSERT INTO memory.main.files
SELECT * REPLACE (file_id + {{offset}} AS file_id) FROM faultlens_source.files;

-- name: shards.copy_rejected
INSERT INTO memory.main.rejected_lines
SELECT * REPLACE (file_id + {{offset}} AS file_id) FROM faultlens_source.rejected_lines;
