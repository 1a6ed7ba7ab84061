package fencingkoans.evidence;

import fencingkoans.destination.PgDestination;
import fencingkoans.koans.support.PgCourseKoans;
import org.junit.jupiter.api.Test;

/**
 * The same model-based check on the PostgreSQL reference of lesson 6: the admitting function in the track's
 * {@code apply_request.sql}, with the grants of {@code grants.sql}, called by the worker role. The sequences are
 * the SQLite check's, from the same master seed, except that an apply with a fault is a plain apply here: the
 * function runs inside the server and has no checkpoint to stop at. It runs on lesson 6's fixture: skipped, with
 * the reason, without a server.
 */
class PostgresReferenceMatchesTheModelTest extends PgCourseKoans {

    /** Fewer than on SQLite by default: every step is a round trip to the server, and so is every comparison. */
    private static final int SEQUENCES = Integer.getInteger("evidence.pg.sequences", 300);
    private static final String REPLAY = "PostgresReferenceMatchesTheModelTest#aGivenSeedReplaysAlone";

    @Test
    void everyRandomSequenceAgreesWithTheModel() {
        modelCheck().assertEverySequenceAgrees(SEQUENCES, "PostgreSQL");
    }

    @Test
    void aGivenSeedReplaysAlone() {
        modelCheck().assertTheGivenSeedAgrees();
    }

    /** Each sequence on the class's database put back to its start state, through the worker role's function. */
    private static ModelCheck<PgDestination> modelCheck() {
        return new ModelCheck<>(() -> {
            database().reset();
            return new PgDestination(database());
        }, SequenceConnections::on, REPLAY);
    }
}
