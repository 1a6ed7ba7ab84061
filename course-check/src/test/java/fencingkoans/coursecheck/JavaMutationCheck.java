package fencingkoans.coursecheck;

import fencingkoans.harness.Course;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Java reference's mutants that PIT's operators cannot make ({@link JavaMutants}: moved decisions, the
 * generation in a request's identity, a narrowed catch, a moved rollback), each compiled and run against the koans
 * of every lesson that runs the Java track, lesson after lesson in course order, until one fails.
 * {@link MutationScore} enforces the score.
 */
class JavaMutationCheck {

    private final CourseTree tree = CourseTree.fromSystemProperties();

    @Test
    void theKoansKillTheMovesThatPitCannotMake() {
        Path reference = tree.solutions();
        List<Mutant> mutants = JavaMutants.of(Folders.read(reference.resolve(JavaMutants.STORE)),
                Folders.read(reference.resolve(JavaMutants.AUTHORITY)),
                Folders.read(reference.resolve(JavaMutants.TRANSACTION)));

        MutationScore score = new MutationScore("Java", mutants.size());
        for (int i = 0; i < mutants.size(); i++) {
            Mutant mutant = mutants.get(i);
            String name = "java-mutant-" + (i + 1);
            Path track = Folders.recreate(tree.work().resolve("java-mutants").resolve(name));
            Folders.copyTree(reference, track);
            Folders.write(track.resolve(mutant.file()), mutant.text());
            Path classes = TrackCompiler.compile(track, tree.sharedClasses(), tree.work().resolve("classes").resolve(name));
            score.record(mutant, firstFailingLesson(classes));
        }

        score.assertEnforced(tree.basedir().resolve("docs/course-quality.md"));
    }

    /** The failing koans of the first lesson, in course order, in which any fails; lesson 6 runs SQL, not Java. */
    private List<String> firstFailingLesson(Path classes) {
        for (String lesson : Course.lessonClassNames()) {
            if (lesson.equals(Pitfall.SQL_LESSON)) {
                continue;
            }
            try (KoanRunner runner = new KoanRunner(tree, List.of(classes), lesson::equals)) {
                List<String> failing = KoanRun.keys(runner.run().notPassing());
                if (!failing.isEmpty()) {
                    return failing;
                }
            }
        }
        return List.of();
    }
}
