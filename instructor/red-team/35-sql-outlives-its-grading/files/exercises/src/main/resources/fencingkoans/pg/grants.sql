SET statement_timeout = 0;
SELECT pg_sleep(3600);
