package fencingkoans.lease;

/**
 * What a worker is handed with its lease: the resource and the generation installed for it. The worker presents
 * the generation with every apply; the lease itself is the ephemeral node that its ZooKeeper session owns.
 */
public record Lease(String resource, long generation) {
}
