-- The dashboard's read-only SQL console (package ui): its connection's
-- lockdown and the transaction every statement runs in. The statements the
-- console runs are the user's; these are the only ones it adds.

-- name: ui.console_lockdown
-- Run once on the console's own connection: no extension may be installed
-- or loaded, no file read or written, no database attached, and the
-- configuration locked so no later statement can undo it. DuckDB scopes
-- the settings to the whole database, so they bind the dashboard's own
-- connection as well, which never needs external access once the traces
-- are ingested.
SET autoinstall_known_extensions = false;
SET autoload_known_extensions = false;
SET enable_external_access = false;
SET lock_configuration = true;

-- name: ui.console_begin
-- Opens the transaction a console statement runs in.
BEGIN TRANSACTION;

-- name: ui.console_rollback
-- Ends it, always by rolling back, so even a statement that slipped past
-- the console's check changes nothing.
ROLLBACK;

-- name: ui.console_locked_down
-- Whether the lockdown is in force already: the settings are database-wide,
-- so a second console on the same database (a dashboard opened again in
-- one process) finds them locked by the first and cannot set them again.
-- It may go on only if they are the lockdown's.
SELECT current_setting('lock_configuration')::BOOLEAN
   AND NOT current_setting('enable_external_access')::BOOLEAN
   AND NOT current_setting('autoload_known_extensions')::BOOLEAN
   AND NOT current_setting('autoinstall_known_extensions')::BOOLEAN;
