package fencingkoans.harness;

import java.util.List;
import java.util.Optional;

/**
 * What is shown about one koan where it runs: its number, the idea, the file to edit and the hints. A koan that
 * holds on every destination has two cards, one per destination; {@code twin} names the other one's number.
 */
public record KoanCard(String number, String teaches, String edit, List<String> hints, Optional<String> twin) {

    /** The methods or files to edit, one each: "A.run, B.apply and C.install" gives A.run, B.apply, C.install. */
    public List<String> edits() {
        return List.of(edit.split(", | and "));
    }

    /** "koan 1.1 again, on PostgreSQL" on the card of lesson 6; "runs again on PostgreSQL as koan 6.1" on 1.1's. */
    public Optional<String> twinNote() {
        return twin.map(other -> KoanOrder.index(number) > KoanOrder.index(other)
                ? "koan " + other + " again, on PostgreSQL"
                : "runs again on PostgreSQL as koan " + other);
    }
}
