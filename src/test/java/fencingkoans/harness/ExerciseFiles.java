package fencingkoans.harness;

import fencingkoans.contract.NotWrittenYet;
import java.util.List;

/**
 * Where the learner's code lives: {@code @Koan(edit = "FencedStore.apply and Authority.install")} names Java
 * methods, and lesson 6's {@code "apply_request.sql"} names one of the track's SQL files.
 */
final class ExerciseFiles {

    static final String FOLDER = NotWrittenYet.EXERCISES + "fencingkoans/store/";
    static final String SQL_FOLDER = "exercises/src/main/resources/fencingkoans/pg/";

    private ExerciseFiles() {
    }

    /** "FencedStore.apply" becomes "exercises/src/main/java/fencingkoans/store/FencedStore.java (method apply)". */
    static List<String> describe(List<String> edits) {
        return edits.stream().map(ExerciseFiles::describeOne).toList();
    }

    private static String describeOne(String classDotMethod) {
        if (classDotMethod.endsWith(".sql")) {
            return SQL_FOLDER + classDotMethod;
        }
        int dot = classDotMethod.indexOf('.');
        return FOLDER + classDotMethod.substring(0, dot) + ".java (method " + classDotMethod.substring(dot + 1) + ")";
    }
}
