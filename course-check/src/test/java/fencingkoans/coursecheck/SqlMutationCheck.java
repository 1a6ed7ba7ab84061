package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mutation testing of lesson 6's reference SQL, which PIT cannot mutate: every mutant of {@link SqlMutants} is run
 * against lesson 6's koans on the PostgreSQL server, and at least {@value #THRESHOLD_PERCENT}% must be killed. A
 * mutant's koans run one {@code @Nested} group after another, and the first group with a failing koan kills it.
 * Every survivor must be explained, under its id, in {@code docs/course-quality.md}.
 */
class SqlMutationCheck {

    private static final int THRESHOLD_PERCENT = 90;
    private static final String SQL_FOLDER = "fencingkoans/pg/";

    private final CourseTree tree = CourseTree.fromSystemProperties();

    @Test
    void lessonSixKoansKillTheMutantsOfTheReferenceSql() throws IOException {
        Path reference = TrackCompiler.compile(tree.solutions(), tree.sharedClasses(),
                tree.work().resolve("classes").resolve("sql-mutants-reference"));
        List<SqlMutant> mutants = SqlMutants.of(read(reference, SqlMutants.FUNCTION), read(reference, SqlMutants.GRANTS));
        try (KoanRunner unmutated = run(List.of(reference))) {
            assertThat(KoanRun.describeEach(unmutated.run().notPassing())).as("lesson 6's koans on the unmutated reference: "
                    + "each must run and pass, so the check needs a PostgreSQL server (FENCING_PG_URL)").isEmpty();
        }

        List<String> survivors = new ArrayList<>();
        int killed = 0;
        long start = System.nanoTime();
        for (int i = 0; i < mutants.size(); i++) {
            SqlMutant mutant = mutants.get(i);
            Path folder = Folders.recreate(tree.work().resolve("sql-mutants").resolve(String.valueOf(i + 1)));
            Files.createDirectories(folder.resolve(SQL_FOLDER));
            Files.writeString(folder.resolve(SQL_FOLDER + mutant.file()), mutant.text());
            List<String> killers = killers(List.of(folder, reference));
            System.out.printf("SQL mutant %d/%d %s: %s%n", i + 1, mutants.size(), mutant.id(),
                    killers.isEmpty() ? "SURVIVED" : "killed by " + String.join(", ", killers));
            if (killers.isEmpty()) {
                survivors.add(mutant.id());
            } else {
                killed++;
            }
        }

        int percent = killed * 100 / mutants.size();
        System.out.printf("SQL mutation score: %d of %d killed (%d%%), %d survived, %.0f s%n", killed, mutants.size(),
                percent, survivors.size(), (System.nanoTime() - start) / 1e9);
        String quality = Files.readString(tree.basedir().resolve("docs/course-quality.md"));
        assertThat(survivors.stream().filter(id -> !quality.contains(id)).toList()).as("surviving SQL "
                + "mutants that docs/course-quality.md does not explain under their id (equivalent, or which koan "
                + "should kill them)").isEmpty();
        assertThat(percent).as("SQL mutation score, in percent of %d mutants; survivors: %s", mutants.size(),
                survivors).isGreaterThanOrEqualTo(THRESHOLD_PERCENT);
    }

    /** The koans of the first of lesson 6's groups in which any fails; none when the mutant survives them all. */
    private List<String> killers(List<Path> folders) {
        try (KoanRunner runner = run(folders)) {
            for (Class<?> group : runner.nestedClassesOf(Pitfall.SQL_LESSON)) {
                List<String> failing = new ArrayList<>(runner.runNested(Pitfall.SQL_LESSON, group).notPassing()
                        .stream().map(KoanOutcome::koan).toList());
                if (!failing.isEmpty()) {
                    return failing;
                }
            }
            return List.of();
        }
    }

    private KoanRunner run(List<Path> folders) {
        return new KoanRunner(tree, folders, Pitfall.SQL_LESSON::equals);
    }

    private static String read(Path classes, String file) {
        try {
            return Files.readString(classes.resolve(SQL_FOLDER + file));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the reference " + file, e);
        }
    }
}
