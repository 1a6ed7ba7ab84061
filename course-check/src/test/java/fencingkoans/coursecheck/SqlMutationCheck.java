package fencingkoans.coursecheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Mutation testing of lesson 6's reference SQL, which PIT cannot mutate: every mutant of {@link SqlMutants} runs
 * against lesson 6's koans on the PostgreSQL server, and {@link MutationScore} enforces the score. A mutant's koans
 * run one {@code @Nested} group after another, and the first group with a failing koan kills it.
 */
class SqlMutationCheck {

    private static final String SQL_FOLDER = "fencingkoans/pg/";

    private final CourseTree tree = CourseTree.fromSystemProperties();

    @Test
    void lessonSixKoansKillTheMutantsOfTheReferenceSql() {
        Path reference = TrackCompiler.compile(tree.solutions(), tree.sharedClasses(),
                tree.work().resolve("classes").resolve("sql-mutants-reference"));
        List<Mutant> mutants = SqlMutants.of(Folders.read(reference.resolve(SQL_FOLDER + SqlMutants.FUNCTION)),
                Folders.read(reference.resolve(SQL_FOLDER + SqlMutants.GRANTS)));
        try (KoanRunner unmutated = runner(List.of(reference))) {
            assertThat(KoanRun.describeEach(unmutated.run().notPassing())).as("lesson 6's koans on the unmutated "
                    + "reference: each must run and pass, so the check needs a PostgreSQL server (FENCING_PG_URL)")
                    .isEmpty();
        }

        MutationScore score = new MutationScore("SQL", mutants.size());
        for (int i = 0; i < mutants.size(); i++) {
            Mutant mutant = mutants.get(i);
            Path folder = Folders.recreate(tree.work().resolve("sql-mutants").resolve(String.valueOf(i + 1)));
            Folders.write(folder.resolve(SQL_FOLDER + mutant.file()), mutant.text());
            try (KoanRunner runner = runner(List.of(folder, reference))) {
                score.record(mutant, runner.firstFailingGroup(Pitfall.SQL_LESSON));
            }
        }

        score.assertEnforced(tree.basedir().resolve("docs/course-quality.md"));
    }

    private KoanRunner runner(List<Path> folders) {
        return new KoanRunner(tree, folders, Pitfall.SQL_LESSON::equals);
    }
}
