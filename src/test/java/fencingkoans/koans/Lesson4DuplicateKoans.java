package fencingkoans.koans;

import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.store.FencedStore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Lesson 4 on the SQLite file. Koans 4.1 to 4.7 are in {@link Lesson4KoansOnEveryDestination}: they hold on every
 * destination, and lesson 6 runs them again on PostgreSQL. Koans 4.8 and 4.9 use SQLite's seams, so they are here;
 * lesson 6 has its own koan for a duplicate in flight.
 */
@Lesson(value = 4, title = "Authority does not remove duplicates", page = "docs/lessons/4-duplicates.md")
class Lesson4DuplicateKoans extends CourseKoans implements Lesson4KoansOnEveryDestination {

    @Interleaving
    @Koan(value = "4.8", edit = "FencedStore.apply",
            teaches = "The record is stored in the effect's transaction: a duplicate in flight waits, then replays.",
            hints = {
                "The duplicate arrives on another connection while the original has applied its delta but not "
                        + "committed. What protects against a double apply then?",
                "Store the record inside the same ImmediateTransaction.run as the effect; the duplicate meets the "
                        + "lock, and its retry finds the record."})
    void aDuplicateInFlightIsContendedThenReplayed() {
        FencedStore original = course.store();
        FencedStore duplicate = course.store();
        AtomicReference<ApplyResult> duplicateInFlight = new AtomicReference<>();
        original.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> duplicateInFlight.set(duplicate.apply(R1)));

        original.apply(R1);
        ApplyResult duplicateRetry = duplicate.apply(R1);

        assertThat(duplicateInFlight.get()).as("the duplicate of r1 sent while the original is mid-transaction")
                .isEqualTo(new Contended(FUND_A));
        assertThat(duplicateRetry).as("the duplicate's retry after the original committed").isEqualTo(new Replayed(7));
        assertThat(course.records()).as("request records").containsExactly(FUND_A + "/r1");
    }

    @Koan(value = "4.9", edit = "FencedStore.apply",
            teaches = "The effect and its record commit together: a failure after the record is stored undoes both.",
            hints = {
                "Suppose the delta is committed first and the record stored in a later transaction. What does a "
                        + "failure between the two leave behind, and what does the worker's retry then do?",
                "Call ledger.addToValue and ledger.storeRecord inside the one ImmediateTransaction.run of apply, "
                        + "with no COMMIT in between."})
    void theEffectAndItsRecordCommitTogether() {
        FencedStore worker = course.store();
        worker.checkpoints().once(Checkpoint.AFTER_RECORD_STORED, () -> {
            throw new InjectedFault(Checkpoint.AFTER_RECORD_STORED);
        });

        assertThatThrownBy(() -> worker.apply(R1)).as("the fault injected after r1's record was stored, before "
                + "anything was committed, reaches the caller").isInstanceOf(InjectedFault.class);
        ApplyResult retry = worker.apply(R1);

        assertThat(retry).as("r1 retried after the failed try: if the delta had been committed without its "
                + "record, the retry would find no record and apply it a second time").isEqualTo(new Applied(7));
        assertThat(course.value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }
}
