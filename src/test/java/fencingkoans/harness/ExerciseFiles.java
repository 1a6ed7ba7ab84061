package fencingkoans.harness;

import fencingkoans.contract.NotWrittenYet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the learner's code lives: {@code @Koan(edit = "FencedStore.apply and Authority.install")} names Java
 * methods, and lesson 6's {@code "apply_request.sql"} names one of the track's SQL files.
 */
final class ExerciseFiles {

    static final String FOLDER = NotWrittenYet.EXERCISES + "fencingkoans/store/";
    static final String SQL_FOLDER = "exercises/src/main/resources/fencingkoans/pg/";

    private ExerciseFiles() {
    }

    /**
     * "FencedStore.apply" becomes "exercises/src/main/java/fencingkoans/store/FencedStore.java (method apply)";
     * two methods of one class make one line, "... LeaseIssuer.java (methods grant and nextGeneration)".
     */
    static List<String> describe(List<String> edits) {
        Map<String, List<String>> methodsByFile = new LinkedHashMap<>();
        for (String edit : edits) {
            if (edit.endsWith(".sql")) {
                methodsByFile.computeIfAbsent(SQL_FOLDER + edit, file -> new ArrayList<>());
            } else {
                int dot = edit.indexOf('.');
                methodsByFile.computeIfAbsent(FOLDER + edit.substring(0, dot) + ".java", file -> new ArrayList<>())
                        .add(edit.substring(dot + 1));
            }
        }
        return methodsByFile.entrySet().stream().map(file -> file.getValue().isEmpty() ? file.getKey()
                : file.getKey() + " (method" + (file.getValue().size() > 1 ? "s " : " ")
                        + String.join(" and ", file.getValue()) + ")").toList();
    }
}
