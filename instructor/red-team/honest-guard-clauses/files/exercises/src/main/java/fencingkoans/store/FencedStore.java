package fencingkoans.store;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ResourceState;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.Ledger;
import fencingkoans.sqlite.RequestRecord;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The destination: it admits an effect only if the request carries the installed generation, checked in the
 * same transaction as the effect, and it remembers every applied request so that a repeat is answered, not
 * applied again.
 */
public final class FencedStore implements AutoCloseable {

    private final Ledger ledger;

    public FencedStore(Ledger ledger) {
        this.ledger = ledger;
    }

    public ApplyResult apply(ApplyRequest request) {
        refuseIfMalformed(request);
        return ImmediateTransaction.run(ledger, () -> decide(request),
                () -> new ApplyResult.Contended(request.resource()));
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

    /** Runs under the write lock: the record answers first, then the generation, then the effect. */
    private ApplyResult decide(ApplyRequest request) {
        Optional<RequestRecord> seen = ledger.findRecord(request.resource(), request.requestId());
        if (seen.isPresent()) {
            return replayOrConflict(seen.get(), request);
        }
        OptionalLong installed = ledger.installedGeneration(request.resource());
        if (installed.isEmpty()) {
            return ApplyResult.Rejected.unknownResource(request);
        }
        long current = installed.getAsLong();
        if (request.generation() < current) {
            return ApplyResult.Rejected.stale(request.generation(), current);
        }
        if (request.generation() > current) {
            return ApplyResult.Rejected.unissued(request.generation(), current);
        }
        return applyAndRemember(request);
    }

    private ApplyResult applyAndRemember(ApplyRequest request) {
        long newValue = ledger.addToValue(request.resource(), request.delta());
        ledger.storeRecord(request, newValue);
        return new ApplyResult.Applied(newValue);
    }

    private static ApplyResult replayOrConflict(RequestRecord seen, ApplyRequest request) {
        if (seen.delta() != request.delta()) {
            return ApplyResult.Rejected.conflicting(request, seen.delta());
        }
        return new ApplyResult.Replayed(seen.resultValue());
    }

    private static void refuseIfMalformed(ApplyRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("request must not be null");
        }
        refuseIfNotText("resource", request.resource());
        refuseIfNotText("requestId", request.requestId());
        int length = request.requestId().length();
        if (length > ApplyRequest.MAX_REQUEST_ID_LENGTH) {
            throw new IllegalArgumentException("requestId has " + length + " characters, more than the "
                    + ApplyRequest.MAX_REQUEST_ID_LENGTH + " allowed");
        }
        if (request.generation() < 1) {
            throw new IllegalArgumentException("generation must be 1 or more, was " + request.generation());
        }
    }

    private static void refuseIfNotText(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(field + " is missing or blank");
        }
        int index = 0;
        while (index < text.length()) {
            int codePoint = text.codePointAt(index);
            if (Character.isISOControl(codePoint)) {
                throw new IllegalArgumentException(field + " holds a control character at index " + index);
            }
            // codePointAt joins a proper pair into one code point, so a surrogate seen here is a lone half.
            if (Character.getType(codePoint) == Character.SURROGATE) {
                throw new IllegalArgumentException(field + " holds half a surrogate pair at index " + index
                        + ": it cannot be stored as UTF-8");
            }
            index += Character.charCount(codePoint);
        }
    }
}
