-- Close the direct path: the worker keeps no privilege on the tables, so every change it makes goes
-- through fencing.apply_request, which runs with its owner's rights.
REVOKE ALL ON ALL TABLES IN SCHEMA fencing FROM ${worker}, PUBLIC;

-- A new function may be executed by PUBLIC, that is by every role on the server. Only the worker may.
REVOKE ALL ON FUNCTION fencing.apply_request(text, bigint, text, bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION fencing.apply_request(text, bigint, text, bigint) TO ${worker};
