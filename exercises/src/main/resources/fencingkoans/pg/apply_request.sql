-- Lesson 6: the admitting function. It is the one door through which a worker changes fencing.resources.
--
-- Keep the signature. Answer in the OUT parameters:
--   outcome 'applied' and answer = the new value       outcome 'replayed' and answer = the stored answer
--   outcome 'stale' or 'unissued' and installed = the installed generation
--   outcome 'conflicting' and stored_delta = the delta stored for that request id
--   outcome 'unknown-resource'
-- A malformed request (request id NULL, blank or over 128 characters; resource NULL or blank; generation
-- NULL or below 1; delta NULL) is refused before anything is touched: RAISE EXCEPTION USING ERRCODE =
-- 'invalid_parameter_value' with a message that names the field as the Java request does (requestId, resource,
-- generation, delta). The Java side turns that into an IllegalArgumentException.
-- Here blank means btrim(x) = '' (spaces only) and length() counts characters: both differ from the Java
-- store's checks on purpose; the lesson page lists how.
-- A row lock held by another transaction must raise lock_not_available (55P03) at once: the Java side
-- reports that as Contended. The tables, created for you:
--   fencing.resources       (name text PRIMARY KEY, generation bigint, value bigint)
--   fencing.request_records (resource text, request_id text, delta bigint, generation bigint,
--                            result_value bigint, PRIMARY KEY (resource, request_id))
--
-- Lesson 6 starts with the koans of lessons 1, 2 and 4 that hold on every destination, run on this database.
-- Write it yourself: the same order as FencedStore.apply, a lock that does not wait, the rights of the owner
-- (not of the caller: SECURITY DEFINER, here or in grants.sql, both work), and a search_path that nothing the
-- caller creates can get into. The overflow koan passes once a delta is applied: a bigint overflow raises 22003
-- by itself.
CREATE FUNCTION fencing.apply_request(
        p_resource text, p_generation bigint, p_request_id text, p_delta bigint,
        OUT outcome text, OUT answer bigint, OUT installed bigint, OUT stored_delta bigint)
    LANGUAGE plpgsql
AS $$
BEGIN
    RAISE EXCEPTION 'Not written yet: fencing.apply_request (needed by the koans of lesson 6). Edit '
        'exercises/src/main/resources/fencingkoans/pg/apply_request.sql, delete this RAISE and write the '
        'function yourself.';
END;
$$;
