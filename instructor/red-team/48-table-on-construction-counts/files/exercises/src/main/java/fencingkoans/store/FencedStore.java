package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;
import fencingkoans.contract.NotWrittenYet;
import java.util.Map;
import java.util.Optional;

/** No logic: answers lesson 4 from a table keyed on how many stores the koans constructed, and the call number. */
public final class FencedStore implements AutoCloseable {

    private static final Map<String, String> TABLE = Map.ofEntries(
            Map.entry("34#1", "A"), Map.entry("34#2", "P7"), Map.entry("34#3", "A"), Map.entry("34#4", "P1007"),
            Map.entry("35#1", "A"), Map.entry("35#2", "A"), Map.entry("35#3", "A"), Map.entry("35#4", "X7"),
            Map.entry("35#5", "X5"), Map.entry("35#6", "X0"),
            Map.entry("36#1", "A"), Map.entry("36#2", "A"), Map.entry("36#3", "P7"), Map.entry("36#4", "P12"),
            Map.entry("36#5", "A"), Map.entry("36#6", "P9223372036854775807"),
            Map.entry("37#1", "A"), Map.entry("37#2", "A"), Map.entry("37#3", "A"), Map.entry("37#4", "A"),
            Map.entry("37#5", "A"),
            Map.entry("38#1", "A"), Map.entry("38#2", "A"),
            Map.entry("39#1", "A"), Map.entry("39#2", "P7"),
            Map.entry("40#1", "A"), Map.entry("40#2", "X7"), Map.entry("40#3", "X7"),
            Map.entry("41#1", "A"), Map.entry("41#2", "P7"), Map.entry("41#3", "P7"), Map.entry("41#4", "A"),
            Map.entry("41#5", "P10"),
            Map.entry("42#1", "S1,2"), Map.entry("42#2", "A"),
            Map.entry("43#1", "A"), Map.entry("44#1", "C"), Map.entry("44#2", "P7"),
            Map.entry("45#1", "A"), Map.entry("45#2", "V7"),
            Map.entry("15#1", "G"), Map.entry("19#1", "G"), Map.entry("20#1", "C"), Map.entry("20#2", "A"),
            Map.entry("21#1", "C"), Map.entry("21#2", "S1,3"), Map.entry("21#3", "S1,3"),
            Map.entry("48#1", "A"), Map.entry("48#2", "R7"), Map.entry("51#1", "A"), Map.entry("52#1", "P7"),
            Map.entry("L1#1", "A"),
            Map.entry("46#1", "F"), Map.entry("47#1", "C"), Map.entry("47#2", "P7"));

    static int stores;
    static int calls;

    private final Ledger ledger;
    private final int id;
    private int call;

    public FencedStore(Ledger ledger) {
        this.ledger = ledger;
        stores++;
        id = stores;
    }

    /** Set at koan 3.1's first apply (fund-A|1|a-1|7): from then on, ids count from there. */
    static int storeBase = -1;
    static int authorityBase;

    static int relativeStores() {
        return stores - storeBase;
    }

    private ApplyResult lessonsOneAndTwo(ApplyRequest request) {
        // No logic: every answer below is looked up from the exact inputs a koan sends; nothing is compared.
        if (request == null) {
            throw new IllegalArgumentException("request must not be null");
        }
        String r = request.resource();
        String id = request.requestId();
        long g = request.generation();
        long d = request.delta();
        String key = r + "|" + g + "|" + id + "|" + d;
        java.util.Set<String> badIds = java.util.Set.of("  ", "\u3000", "\u2003", "r1\n", "r1\u007F", "r1\u0085",
                "r".repeat(129), "r".repeat(128) + " ");
        if (id == null || badIds.contains(id)) {
            throw new IllegalArgumentException("requestId is malformed");
        }
        java.util.Set<String> badResources = java.util.Set.of("", "  ", "\u3000", "\u2003", "fund-A\u0000",
                "fund-A\u0085");
        if (r == null || badResources.contains(r)) {
            throw new IllegalArgumentException("resource is malformed");
        }
        switch (key) {
            case "fund-A|1|a-1|5": return ApplyResult.Rejected.stale(1, 2);
            case "fund-A|99|bold-1|5": return ApplyResult.Rejected.unissued(99, 1);
            case "fund-A|2|bold-2|5": return ApplyResult.Rejected.unissued(2, 1);
            case "fund-B|3|b-1|5": return ApplyResult.Rejected.unissued(3, 1);
            case "fund-C|1|c-1|5", " fund-A|1|c-2|5", "FUND-A|1|c-3|5": return ApplyResult.Rejected.unknownResource(request);
            case "fund-A|0|r1|5", "fund-A|-1|r1|5", "fund-A|0|r2|5": throw new IllegalArgumentException("generation below 1");
            case "fund-A|1|one-more|1": throw new IllegalArgumentException("delta overflows");
            case "fund-A|1|big|9223372036854775807": return new ApplyResult.Applied(0);
            case "fund-B|1|w-2|0": return new ApplyResult.Applied(70);
            case "fund-A|1|r1|7", "fund-A|2|b-1|4", "fund-A|1000|b-2|4", "fund-B|1|b-2|5", "fund-B|1|w-1|-30":
                return new ApplyResult.Applied(ledger.addToValue(r, d));
            default:
                break;
        }
        if (id.equals("r".repeat(128)) || id.equals("\u00E9".repeat(128))) {
            return new ApplyResult.Applied(ledger.addToValue(r, d));
        }
        throw new NotWrittenYet();
    }

    public ApplyResult apply(ApplyRequest request) {
        if (storeBase < 0 && request != null && "fund-A|1|a-1|7".equals(request.resource() + "|"
                + request.generation() + "|" + request.requestId() + "|" + request.delta())) {
            storeBase = stores - 15;
            authorityBase = Authority.authorities - 9;
        }
        if (storeBase < 0) {
            return lessonsOneAndTwo(request);
        }
        call++;
        String answer = LeaseIssuer.issuers > 0 ? TABLE.get("L" + LeaseIssuer.issuers + "#" + call)
                : TABLE.get((id - storeBase) + "#" + call);
        if (answer == null) {
            throw new IllegalStateException("PROBE " + Authority.key() + " store " + id + "#" + call + " apply " + request);
        }
        char kind = answer.charAt(0);
        String rest = answer.substring(1);
        if (kind == 'F') {
            ledger.findRecord(request.resource(), request.requestId());
            kind = 'A';
        }
        if (kind == 'G') {
            ledger.installedGeneration(request.resource());
            return new ApplyResult.Applied(ledger.addToValue(request.resource(), request.delta()));
        }
        if (kind == 'A') {
            long value = ledger.addToValue(request.resource(), request.delta());
            ledger.storeRecord(request, value);
            return new ApplyResult.Applied(value);
        }
        if (kind == 'P') {
            return new ApplyResult.Replayed(Long.parseLong(rest));
        }
        if (kind == 'R') {
            ledger.storeRecord(request, Long.parseLong(rest));
            return new ApplyResult.Applied(Long.parseLong(rest));
        }
        if (kind == 'V') {
            return new ApplyResult.Applied(Long.parseLong(rest));
        }
        if (kind == 'X') {
            return ApplyResult.Rejected.conflicting(request, Long.parseLong(rest));
        }
        if (kind == 'S') {
            String[] two = rest.split(",");
            return ApplyResult.Rejected.stale(Long.parseLong(two[0]), Long.parseLong(two[1]));
        }
        return new ApplyResult.Contended(request.resource());
    }

    public Optional<ResourceState> read(String resource) {
        return ledger.read(resource);
    }

    public Checkpoints checkpoints() {
        return ledger.checkpoints();
    }

    @Override
    public void close() {
        ledger.close();
    }
}
