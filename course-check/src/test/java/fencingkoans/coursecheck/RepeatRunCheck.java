package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.harness.Interleaving;
import fencingkoans.harness.KoanResults.Result;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.TagFilter;

/**
 * The koans in which two connections or threads act at the same time ({@code @Interleaving}: all of lesson 3 and
 * a few others), run many times in one JVM on the reference, quietly and with the other core busy: a scripted
 * interleaving must come out the same way on every run. {@code -Dcourse-check.repeat-tag=} (empty) repeats
 * every koan instead.
 */
class RepeatRunCheck {

    private static final int MINIMUM_REPEATS = 200;

    private final CourseTree tree = CourseTree.fromSystemProperties();
    private final int repeats = Integer.getInteger("course-check.repeats", MINIMUM_REPEATS);
    private final String tag = System.getProperty("course-check.repeat-tag", Interleaving.TAG);

    @Test
    void everyKoanPassesEveryRepeat() throws Exception {
        assertNoFlake(false);
    }

    @Test
    void everyKoanPassesEveryRepeatWhileTheOtherCoreIsBusy() throws Exception {
        assertNoFlake(true);
    }

    private void assertNoFlake(boolean otherCoreBusy) throws Exception {
        Path classes = TrackCompiler.compile(tree.solutions(), tree.sharedClasses(),
                tree.work().resolve("classes").resolve("repeat-" + (otherCoreBusy ? "busy" : "quiet")));
        Map<String, String> flakes = new TreeMap<>();
        int koans = 0;
        long start = System.nanoTime();

        try (KoanRunner runner = new KoanRunner(tree, classes); BusyCore busy = otherCoreBusy ? new BusyCore() : null) {
            for (int round = 1; round <= repeats; round++) {
                KoanRun run = tag.isBlank() ? runner.run() : runner.run(TagFilter.includeTags(tag));
                koans = run.outcomes().size();
                for (Result outcome : run.notPassing()) {
                    flakes.merge(outcome.key(), "round " + round + ": " + KoanRun.describe(outcome),
                            (first, later) -> first + " (and again later)");
                }
            }
        }

        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("Repeat run%s: %d koans (%s) x %d rounds on the reference, %d not passing, %.1f s%n",
                otherCoreBusy ? " with the other core busy" : "", koans, tag.isBlank() ? "all" : "@" + tag, repeats,
                flakes.size(), seconds);
        assertThat(koans).as("koans repeated").isPositive();
        assertThat(repeats).as("rounds per koan (-Dcourse-check.repeats)").isGreaterThanOrEqualTo(MINIMUM_REPEATS);
        assertThat(flakes).as("koans that did not pass in every one of %d rounds on the reference%s: a scripted "
                + "interleaving must never depend on timing", repeats, otherCoreBusy ? " with the other core busy" : "")
                .isEmpty();
    }
}
