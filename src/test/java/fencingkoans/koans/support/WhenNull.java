package fencingkoans.koans.support;

/**
 * A note for a koan's description that is given only when what the koan observed is null, and then says why it
 * is: printed every time, "(null: ...)" reads as the cause of whatever failure happened instead.
 */
public final class WhenNull {

    private WhenNull() {
    }

    public static String because(Object observed, String why) {
        return observed == null ? " (null: " + why + ")" : "";
    }
}
