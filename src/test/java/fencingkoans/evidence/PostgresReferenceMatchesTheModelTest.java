package fencingkoans.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.koans.support.PostgresServer;
import fencingkoans.pg.PgDatabase;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same model-based check on the PostgreSQL reference of lesson 6: the admitting function in the track's
 * {@code apply_request.sql}, with the grants of {@code grants.sql}, called by the worker role. The sequences are
 * the SQLite check's, from the same master seed, except that an apply with a fault is a plain apply here: the
 * function runs inside the server and has no checkpoint to stop at. Skipped, with the reason, without a server.
 */
@ExtendWith(PostgresServer.class)
class PostgresReferenceMatchesTheModelTest {

    /** Fewer than on SQLite by default: every step is a round trip to the server, and so is every comparison. */
    private static final int SEQUENCES = Integer.getInteger("evidence.pg.sequences", 300);
    private static final String REPLAY = "PostgresReferenceMatchesTheModelTest#aGivenSeedReplaysAlone";

    private static PgDatabase database;

    @BeforeEach
    void createTheDatabaseOnce() {
        if (database == null) {
            database = PgDatabase.create(PostgresServer.server());
        }
    }

    @AfterAll
    static void dropTheDatabase() {
        if (database != null) {
            database.close();
            database = null;
        }
    }

    @Test
    void everyRandomSequenceAgreesWithTheModel() {
        ModelCheck check = new ModelCheck(() -> new PostgresStore(database), REPLAY);
        long started = System.nanoTime();

        Optional<String> failure = check.firstFailure(SEQUENCES);

        System.out.println("model check on PostgreSQL: " + check.summary(SEQUENCES, started));
        assertThat(failure).as("the PostgreSQL reference must answer every step as the contract model does").isEmpty();
    }

    @Test
    void aGivenSeedReplaysAlone() {
        long seed = Long.getLong("evidence.seed", ModelCheck.MASTER_SEED);

        Optional<String> failure = new ModelCheck(() -> new PostgresStore(database), REPLAY)
                .check(seed, ModelCheck.MAX_STEPS);

        assertThat(failure).as("the sequence of seed %d on PostgreSQL (set it with -Devidence.seed=N)", seed).isEmpty();
    }
}
