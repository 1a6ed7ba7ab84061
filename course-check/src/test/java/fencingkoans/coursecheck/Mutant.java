package fencingkoans.coursecheck;

/** One mutant of a reference file: its id (operator, place, change), the file it changes, that file's new text. */
record Mutant(String id, String file, String text) {
}
