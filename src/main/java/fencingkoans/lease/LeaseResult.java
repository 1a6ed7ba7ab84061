package fencingkoans.lease;

import fencingkoans.contract.InstallResult;

/** The answer to {@code LeaseIssuer.grant(worker, resource)}. */
public sealed interface LeaseResult {

    /** One line for a person: what happened and why. */
    String describe();

    /** The worker holds the lease, and the lease's generation is installed at the destination. */
    record Granted(Lease lease) implements LeaseResult {

        @Override
        public String describe() {
            return "granted the lease on " + lease.resource() + " with generation " + lease.generation();
        }
    }

    /** The lease is taken, by another session or by the asker itself; nothing was issued or installed. */
    record Held(String resource) implements LeaseResult {

        @Override
        public String describe() {
            return "refused: another session holds the lease on " + resource;
        }
    }

    /** A generation was issued but the destination refused to install it; the lease was given back. */
    record NotInstalled(String resource, long generation, InstallResult install) implements LeaseResult {

        @Override
        public String describe() {
            return "generation " + generation + " was issued for " + resource + " but not installed: "
                    + install.describe();
        }
    }

    /** ZooKeeper could not answer (no quorum, no connection); nothing was installed. */
    record Unavailable(String resource, String reason) implements LeaseResult {

        @Override
        public String describe() {
            return "unavailable: no lease on " + resource + " (" + reason + "); nothing was installed";
        }
    }
}
