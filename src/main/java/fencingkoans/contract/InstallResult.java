package fencingkoans.contract;

/** The answer to {@code Authority.install(resource, generation)}. */
public sealed interface InstallResult {

    /** One line for a person: what happened and why. */
    String describe();

    /** The generation is now the installed one. */
    record Installed(String resource, long generation) implements InstallResult {

        @Override
        public String describe() {
            return "installed generation " + generation + " on " + resource;
        }
    }

    /** The offered generation was not strictly higher than the installed one; nothing changed. */
    record NotHigher(String resource, long installed, long offered) implements InstallResult {

        @Override
        public String describe() {
            return "refused: generation " + offered + " is not above the installed " + installed;
        }
    }

    /** The destination holds no such resource; nothing was created. */
    record UnknownResource(String resource) implements InstallResult {

        @Override
        public String describe() {
            return "refused: no resource named '" + resource + "'";
        }
    }

    /** Another connection held the write lock; nothing changed, and a retry may succeed. */
    record Contended(String resource) implements InstallResult {

        @Override
        public String describe() {
            return "contended: the lock on " + resource + " is held elsewhere; a retry may succeed";
        }
    }
}
