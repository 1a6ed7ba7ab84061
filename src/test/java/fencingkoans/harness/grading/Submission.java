package fencingkoans.harness.grading;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A learner's submission: exactly the learner files the course ships under {@code exercises/}, each a regular
 * file. An extra file, a resource, a class file, a link or anything that is not a plain file is refused before
 * anything runs, and so is a shipped file that is missing.
 */
record Submission(Path folder, List<String> files) {

    /** Why {@code folder} (a learner's {@code exercises/}) is not a submission of {@code shipped}; empty if it is. */
    static List<String> refusals(Path folder, List<String> shipped) throws IOException {
        List<String> refusals = new ArrayList<>();
        if (Files.isSymbolicLink(folder) || !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return List.of(TamperManifest.SUBMISSION + "/ (not a plain folder)");
        }
        List<String> present = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path path : walk.filter(path -> !path.equals(folder)).sorted().toList()) {
                String name = TamperManifest.SUBMISSION + "/" + TamperManifest.relative(folder, path);
                if (Files.isSymbolicLink(path)) {
                    refusals.add(name + " (a symbolic link; a submission holds plain files only)");
                } else if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                } else if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    refusals.add(name + " (not a regular file)");
                } else if (!shipped.contains(name)) {
                    refusals.add(name + " (not a file the course ships; a submission is only the learner files "
                            + "under exercises/)");
                } else {
                    present.add(name);
                }
            }
        }
        shipped.stream().filter(file -> !present.contains(file)).forEach(file -> refusals.add(file
                + " (missing; put the shipped stub back, then write your own code in it)"));
        return refusals;
    }

    List<LearnerJavaCheck.LearnerFile> javaFiles() {
        return files.stream().filter(file -> file.endsWith(".java"))
                .map(file -> new LearnerJavaCheck.LearnerFile(file, inFolder(file))).toList();
    }

    /** The learner's resources (lesson 6's SQL) with their place on the class path. */
    List<String> resources() {
        return files.stream().filter(file -> file.contains("/src/main/resources/")).toList();
    }

    Path inFolder(String file) {
        return folder.resolve(file.substring(TamperManifest.SUBMISSION.length() + 1));
    }
}
