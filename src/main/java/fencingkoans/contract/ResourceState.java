package fencingkoans.contract;

/** What a read returns: the resource's installed generation and value as committed right now. */
public record ResourceState(String resource, long generation, long value) {
}
