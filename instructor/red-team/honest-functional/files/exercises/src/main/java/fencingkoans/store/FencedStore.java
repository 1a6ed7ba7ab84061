package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.RequestRecord;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * The destination: it admits an effect only if the request carries the installed generation, checked in the
 * same transaction as the effect, and it remembers every applied request so that a repeat is answered, not
 * applied again.
 */
public final class FencedStore implements AutoCloseable {

    /** A way a request can be malformed, and the error that names the field. */
    private record Rule(Predicate<ApplyRequest> breaks, String error) {
    }

    private static final IntPredicate LONE_SURROGATE = point -> Character.getType(point) == Character.SURROGATE;

    /** Checked in this order, so each rule may assume the ones before it hold (no field is null past its first). */
    private static final List<Rule> RULES = List.of(
            new Rule(request -> isBlank(request.resource()), "resource must not be null or blank"),
            new Rule(request -> has(request.resource(), Character::isISOControl),
                    "resource must not contain control characters"),
            new Rule(request -> has(request.resource(), LONE_SURROGATE),
                    "resource must not contain half a surrogate pair"),
            new Rule(request -> isBlank(request.requestId()), "requestId must not be null or blank"),
            new Rule(request -> request.requestId().length() > ApplyRequest.MAX_REQUEST_ID_LENGTH,
                    "requestId must be at most " + ApplyRequest.MAX_REQUEST_ID_LENGTH + " characters long"),
            new Rule(request -> has(request.requestId(), Character::isISOControl),
                    "requestId must not contain control characters"),
            // Half a pair has no UTF-8 form; SQLite would store '?' and two ids would collide.
            new Rule(request -> has(request.requestId(), LONE_SURROGATE),
                    "requestId must not contain half a surrogate pair"),
            new Rule(request -> request.generation() < 1, "generation must be at least 1"));

    private final Ledger ledger;

    public FencedStore(Ledger ledger) {
        this.ledger = ledger;
    }

    public ApplyResult apply(ApplyRequest request) {
        ApplyRequest checked = wellFormed(request);
        return ImmediateTransaction.run(ledger, () -> decide(checked), () -> new Contended(checked.resource()));
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

    private static ApplyRequest wellFormed(ApplyRequest request) {
        ApplyRequest present = Optional.ofNullable(request)
                .orElseThrow(() -> new IllegalArgumentException("request must not be null"));
        RULES.stream().filter(rule -> rule.breaks().test(present)).findFirst().ifPresent(rule -> {
            throw new IllegalArgumentException(rule.error());
        });
        return present;
    }

    /** A remembered request answers before any generation check, so a lost answer survives a new generation. */
    private ApplyResult decide(ApplyRequest request) {
        return ledger.findRecord(request.resource(), request.requestId())
                .map(answerFrom(request))
                .orElseGet(() -> admitNew(request));
    }

    private static Function<RequestRecord, ApplyResult> answerFrom(ApplyRequest request) {
        return earlier -> earlier.delta() == request.delta()
                ? new Replayed(earlier.resultValue())
                : Rejected.conflicting(request, earlier.delta());
    }

    private ApplyResult admitNew(ApplyRequest request) {
        long presented = request.generation();
        return ledger.installedGeneration(request.resource()).stream()
                .mapToObj(installed -> presented == installed ? applyAndRecord(request)
                        : presented < installed ? Rejected.stale(presented, installed)
                        : Rejected.unissued(presented, installed))
                .findFirst()
                .orElseGet(() -> Rejected.unknownResource(request));
    }

    private ApplyResult applyAndRecord(ApplyRequest request) {
        long value = ledger.addToValue(request.resource(), request.delta());
        ledger.storeRecord(request, value);
        return new Applied(value);
    }

    private static boolean isBlank(String text) {
        return text == null || text.isBlank();
    }

    private static boolean has(String text, IntPredicate codePoint) {
        return text.codePoints().anyMatch(codePoint);
    }
}
