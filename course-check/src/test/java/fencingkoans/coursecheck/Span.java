package fencingkoans.coursecheck;

/** A stretch of a reference file's text, from the offset {@code from} up to, not including, {@code to}. */
record Span(int from, int to) {

    String of(String text) {
        return text.substring(from, to);
    }

    boolean contains(int offset) {
        return from <= offset && offset < to;
    }
}
