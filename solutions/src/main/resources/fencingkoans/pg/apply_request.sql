-- The admitting function: the one door through which a worker changes fencing.resources.
-- It runs as its owner (SECURITY DEFINER), so the worker needs no privilege on the tables themselves.
-- The search_path is fixed, with pg_temp last, so that no object a caller creates (a temporary table named
-- resources, say) can stand in for the real tables while the function runs with the owner's rights.
CREATE FUNCTION fencing.apply_request(
        p_resource text, p_generation bigint, p_request_id text, p_delta bigint,
        OUT outcome text, OUT answer bigint, OUT installed bigint, OUT stored_delta bigint)
    LANGUAGE plpgsql
    SECURITY DEFINER
    SET search_path = fencing, pg_temp
AS $$
DECLARE
    target  resources%ROWTYPE;
    earlier request_records%ROWTYPE;
BEGIN
    -- Refuse a malformed request before touching anything; the Java side turns 22023 into IllegalArgumentException.
    IF p_request_id IS NULL OR btrim(p_request_id) = '' THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'requestId must not be null or blank';
    END IF;
    IF length(p_request_id) > 128 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value',
            MESSAGE = 'requestId is longer than 128 characters';
    END IF;
    IF p_resource IS NULL OR btrim(p_resource) = '' THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'resource must not be null or blank';
    END IF;
    IF p_generation IS NULL OR p_generation < 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'generation must be at least 1';
    END IF;
    -- Any other delta is a deposit or a withdrawal; only a caller writing SQL can send none.
    IF p_delta IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'delta must not be null';
    END IF;

    -- Lock the resource's row first and never wait for it: a row held by another transaction raises
    -- lock_not_available (55P03) at once, and the caller reports it as contention.
    SELECT * INTO target FROM resources WHERE name = p_resource FOR UPDATE NOWAIT;
    IF NOT FOUND THEN
        outcome := 'unknown-resource';
        RETURN;
    END IF;

    -- The record answers before any generation check, so a lost response is recovered after a new generation.
    SELECT * INTO earlier FROM request_records WHERE resource = p_resource AND request_id = p_request_id;
    IF FOUND THEN
        IF earlier.delta = p_delta THEN
            outcome := 'replayed';
            answer := earlier.result_value;
        ELSE
            outcome := 'conflicting';
            stored_delta := earlier.delta;
        END IF;
        RETURN;
    END IF;

    installed := target.generation;
    IF p_generation < target.generation THEN
        outcome := 'stale';
        RETURN;
    END IF;
    IF p_generation > target.generation THEN
        outcome := 'unissued';
        RETURN;
    END IF;

    -- A sum beyond bigint raises numeric_value_out_of_range (22003) and undoes the whole call.
    UPDATE resources SET value = value + p_delta WHERE name = p_resource RETURNING value INTO answer;
    INSERT INTO request_records (resource, request_id, delta, generation, result_value)
        VALUES (p_resource, p_request_id, p_delta, p_generation, answer);
    outcome := 'applied';
END;
$$;
