package fencingkoans.harness.grading;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
                } else if (!isText(path)) {
                    refusals.add(name + " (not text: every learner file is Java or SQL source, UTF-8 with no NUL "
                            + "byte)");
                } else {
                    present.add(name);
                }
            }
        }
        shipped.stream().filter(file -> !present.contains(file)).forEach(file -> refusals.add(file
                + " (missing; put the shipped stub back, then write your own code in it)"));
        return refusals;
    }

    /** UTF-8 without a NUL byte: a compiled library or class file dressed as a learner file is not. */
    private static boolean isText(Path file) throws IOException {
        byte[] content = Files.readAllBytes(file);
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content));
        } catch (CharacterCodingException e) {
            return false;
        }
        for (byte b : content) {
            if (b == 0) {
                return false;
            }
        }
        return true;
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
