package fencingkoans.koans;

import static fencingkoans.koans.support.WhenNull.because;
import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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
 * Lesson 4 on the SQLite file. Koans 4.1 to 4.7, 4.10 and 4.12 are in {@link Lesson4KoansOnEveryDestination}: they
 * hold on every destination, and lesson 6 runs them again on PostgreSQL. Koans 4.8, 4.9 and 4.11 use SQLite's seams,
 * so they are here; lesson 6 has its own koans for a duplicate in flight and for the order of lock and lookup.
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

    @Interleaving
    @Koan(value = "4.11", edit = "FencedStore.apply",
            teaches = "The record is looked up under the lock: a duplicate arriving right after the lookup waits its turn.",
            hints = {
                "Lesson 1's stale read, again: 'there is no record for r1' is a fact about the moment of the lookup. "
                        + "What can happen between that moment and your storeRecord, if no lock is held yet?",
                "Call ledger.findRecord inside the ImmediateTransaction.run of apply, as the first step of the work, "
                        + "not before BEGIN IMMEDIATE: then the duplicate meets the lock, and its retry finds the record."})
    void theRecordIsLookedUpUnderTheLock() {
        FencedStore original = course.store();
        FencedStore duplicate = course.store();
        AtomicReference<ApplyResult> duplicateAfterLookup = new AtomicReference<>();
        AtomicReference<ApplyResult> originalResult = new AtomicReference<>();
        original.checkpoints().once(Checkpoint.AFTER_RECORD_LOOKUP,
                () -> duplicateAfterLookup.set(duplicate.apply(R1)));

        Throwable originalFailure = catchThrowable(() -> originalResult.set(original.apply(R1)));
        ApplyResult duplicateRetry = duplicate.apply(R1);

        assertThat(duplicateAfterLookup.get()).as("the duplicate of r1, sent just after the original looked for r1's "
                + "record and found none: if the original holds no lock yet, the duplicate applies, and the "
                + "original's 'no record' is stale before it writes%s", because(duplicateAfterLookup.get(),
                        "apply never called ledger.findRecord, where this moment is scripted"))
                .isEqualTo(new Contended(FUND_A));
        assertThat(originalFailure).as("what the original apply of r1 threw: a duplicate that committed after its "
                + "lookup ends in a broken unique key instead of an answer").isNull();
        assertThat(originalResult.get()).as("the original r1").isEqualTo(new Applied(7));
        assertThat(duplicateRetry).as("the duplicate's retry after the original committed").isEqualTo(new Replayed(7));
        assertThat(course.value(FUND_A)).as("fund-A's value: r1's delta counts once").isEqualTo(7);
    }
}
