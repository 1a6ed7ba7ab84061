package fencingkoans.contract;

/**
 * Thrown by every method the learner still has to write. It names the koans that need the method and the
 * file to edit, so that a failing koan points straight at the work.
 */
public final class NotWrittenYet extends RuntimeException {

    private final String koans;
    private final String file;
    private final String method;

    public NotWrittenYet(String koans, String file, String method) {
        super("Not written yet: " + method + " (needed by koan " + koans + "). Edit " + file
                + ", delete this throw and write the method yourself.");
        this.koans = koans;
        this.file = file;
        this.method = method;
    }

    public String koans() {
        return koans;
    }

    public String file() {
        return file;
    }

    public String method() {
        return method;
    }
}
