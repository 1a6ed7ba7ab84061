package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The tally of a mutation check of the course's own: one line per mutant as it is decided, then the score, which
 * must reach the threshold, and the survivors, each of which {@code docs/course-quality.md} must explain under
 * its id.
 */
final class MutationScore {

    static final int THRESHOLD_PERCENT = 90;

    private final String what;
    private final int total;
    private final List<String> survivors = new ArrayList<>();
    private final long start = System.nanoTime();
    private int decided;

    MutationScore(String what, int total) {
        this.what = what;
        this.total = total;
    }

    /** {@code killers}: the koans that failed on the mutant; none when it survived. */
    void record(Mutant mutant, List<String> killers) {
        decided++;
        System.out.printf("%s mutant %d/%d %s: %s%n", what, decided, total, mutant.id(),
                killers.isEmpty() ? "SURVIVED" : "killed by " + String.join(", ", killers));
        if (killers.isEmpty()) {
            survivors.add(mutant.id());
        }
    }

    void assertEnforced(Path courseQuality) {
        int killed = total - survivors.size();
        int percent = total == 0 ? 0 : killed * 100 / total;
        System.out.printf("%s mutation score: %d of %d killed (%d%%), %d survived, %.0f s%n", what, killed, total,
                percent, survivors.size(), (System.nanoTime() - start) / 1e9);
        String explained = Folders.read(courseQuality);
        assertThat(decided).as("%s mutants decided", what).isEqualTo(total).isPositive();
        assertThat(survivors.stream().filter(id -> !explained.contains(id)).toList()).as("surviving %s mutants that "
                + "%s does not explain under their id (equivalent, or which koan should kill them)", what,
                courseQuality.getFileName()).isEmpty();
        assertThat(percent).as("%s mutation score, in percent of %d mutants; survivors: %s", what, total, survivors)
                .isGreaterThanOrEqualTo(THRESHOLD_PERCENT);
    }
}
