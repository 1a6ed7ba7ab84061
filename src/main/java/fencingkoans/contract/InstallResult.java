package fencingkoans.contract;

/** The answer to {@code Authority.install(resource, generation)}. */
public sealed interface InstallResult {

    /** The generation is now the installed one. */
    record Installed(String resource, long generation) implements InstallResult {
    }

    /** The offered generation was not strictly higher than the installed one; nothing changed. */
    record NotHigher(String resource, long installed, long offered) implements InstallResult {
    }

    /** The destination holds no such resource; nothing was created. */
    record UnknownResource(String resource) implements InstallResult {
    }

    /** Another connection held the write lock; nothing changed, and a retry may succeed. */
    record Contended(String resource) implements InstallResult {
    }
}
