package fencingkoans.koans.support;

import fencingkoans.pg.PgServer;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/** A throwaway PostgreSQL server in Docker, for the whole run; Testcontainers removes it when the JVM exits. */
final class PostgresContainer {

    private static final DockerImageName IMAGE = DockerImageName.parse("postgres:17-alpine");

    private PostgresContainer() {
    }

    @SuppressWarnings("resource") // lives as long as the run; Testcontainers' reaper stops it
    static PgServer start() {
        PostgreSQLContainer<?> container = new PostgreSQLContainer<>(IMAGE);
        container.start();
        return PgServer.fromJdbcUrl(container.getJdbcUrl(), container.getUsername(), container.getPassword());
    }
}
