package fencingkoans.coursecheck;

/** One mutant of lesson 6's reference SQL: its id (operator, place, change), the file it changes, that file's text. */
record SqlMutant(String id, String file, String text) {
}
