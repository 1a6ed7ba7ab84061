package fencingkoans.contract;

/**
 * What a worker presents to the destination: "on this resource, under this generation, apply this delta,
 * and remember it as this request id". The destination trusts none of it: {@code FencedStore} checks it.
 */
public record ApplyRequest(String resource, long generation, String requestId, long delta) {

    /** The longest request id the destination stores; anything longer is refused as malformed. */
    public static final int MAX_REQUEST_ID_LENGTH = 128;

    /** The text fields in quotes: a blank request id shows as {@code ""} or {@code "  "}, not as nothing. */
    @Override
    public String toString() {
        return "ApplyRequest[resource=" + quoted(resource) + ", generation=" + generation + ", requestId="
                + quoted(requestId) + ", delta=" + delta + "]";
    }

    private static String quoted(String text) {
        return text == null ? "null" : "\"" + text + "\"";
    }
}
