package fencingkoans.koans;

import static fencingkoans.sqlite.Database.FUND_A;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.harness.Interleaving;
import fencingkoans.harness.Koan;
import fencingkoans.harness.Lesson;
import fencingkoans.koans.support.CourseKoans;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.Authority;

/**
 * Lesson 1 on the SQLite file. Koans 1.1, 1.2, 1.3 and 1.5 are in {@link Lesson1KoansOnEveryDestination}: they hold
 * on every destination, and lesson 6 runs them again on PostgreSQL. Koan 1.4 watches SQLite's seams, so it is here.
 */
@Lesson(value = 1, title = "Stale authority", page = "docs/lessons/1-stale-authority.md")
class Lesson1StaleAuthorityKoans extends CourseKoans implements Lesson1KoansOnEveryDestination {

    @Interleaving
    @Koan(value = "1.4", edit = "Authority.install",
            teaches = "Checking again just before a write does not close the gap: check and write are two moments.",
            hints = {
                "An observation: it passes as soon as Authority.install works. It shows a worker that checks, "
                        + "then writes in a separate statement, without your store.",
                "Read the koan: where does the authority's install happen, relative to the check and the write?"})
    void checkingAgainJustBeforeTheWriteDoesNotCloseTheGap() {
        Authority authority = course.authority();
        Ledger carefulWorker = course.ledger();
        carefulWorker.checkpoints().once(Checkpoint.AFTER_GENERATION_READ, () -> authority.install(FUND_A, 2));

        long checked = carefulWorker.installedGeneration(FUND_A).orElseThrow();
        carefulWorker.addToValue(FUND_A, 5);

        assertThat(checked).as("the careful worker's check, made right before its write").isEqualTo(1);
        assertThat(course.generation(FUND_A)).as("the generation installed between that check and the write")
                .isEqualTo(2);
        assertThat(course.value(FUND_A)).as("the careful worker's write landed although its authority was "
                + "already replaced: however close, the check and the write are separate moments")
                .isEqualTo(5);
    }
}
