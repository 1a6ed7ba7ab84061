package fencingkoans.sqlite;

/** The destination's memory of one applied request: what was asked, and what was answered. */
public record RequestRecord(String resource, String requestId, long delta, long generation, long resultValue) {
}
