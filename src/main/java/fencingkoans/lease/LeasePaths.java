package fencingkoans.lease;

/**
 * Where leases and generation counters live in ZooKeeper, one node of each per resource. They sit under two
 * different parents because they have different owners: a worker creates and deletes its own lease, while only the
 * issuer may create, change or delete anything under the counters' parent.
 */
public final class LeasePaths {

    /** The value a new counter starts at: the generation every resource is seeded with at the destination. */
    public static final long FIRST_COUNTER_VALUE = 1;

    private static final String LEASES = "/leases/";
    private static final String COUNTERS = "/generations/";

    private LeasePaths() {
    }

    /** An ephemeral node: it exists while its holder's session does. */
    public static String lease(String resource) {
        return LEASES + checked(resource);
    }

    /** A persistent node whose data is the last generation issued for the resource, in decimal. */
    public static String counter(String resource) {
        return COUNTERS + checked(resource);
    }

    /** Whether a path as ZooKeeper sees it (with a client's namespace in front) names a generation counter. */
    public static boolean isCounter(String path) {
        return path.contains(COUNTERS);
    }

    /** Whether a path as ZooKeeper sees it (with a client's namespace in front) names a lease. */
    public static boolean isLease(String path) {
        return path.contains(LEASES);
    }

    private static String checked(String resource) {
        if (resource == null || resource.isBlank() || resource.contains("/")) {
            throw new IllegalArgumentException("a resource name must be non-blank and hold no '/': '" + resource + "'");
        }
        return resource;
    }
}
