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
        requireWellFormed(request);
        return ImmediateTransaction.run(ledger, () -> admit(request), () -> new Contended(request.resource()));
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

    private ApplyResult admit(ApplyRequest request) {
        // The record comes first: a worker whose response was lost must learn what happened, even after
        // authority has moved on.
        Optional<RequestRecord> earlier = ledger.findRecord(request.resource(), request.requestId());
        if (earlier.isPresent()) {
            return answerFromRecord(earlier.get(), request);
        }
        OptionalLong installed = ledger.installedGeneration(request.resource());
        if (installed.isEmpty()) {
            return Rejected.unknownResource(request);
        }
        if (request.generation() < installed.getAsLong()) {
            return Rejected.stale(request.generation(), installed.getAsLong());
        }
        if (request.generation() > installed.getAsLong()) {
            return Rejected.unissued(request.generation(), installed.getAsLong());
        }
        // A fund is never overdrawn: a withdrawal larger than what the fund holds is refused, before any effect.
        long held = ledger.read(request.resource()).orElseThrow().value();
        if (request.delta() < 0 && held + request.delta() < 0) {
            throw new IllegalArgumentException("delta " + request.delta() + " would overdraw " + request.resource()
                    + ", which holds " + held);
        }
        long value = ledger.addToValue(request.resource(), request.delta());
        ledger.storeRecord(request, value);
        return new Applied(value);
    }

    private static ApplyResult answerFromRecord(RequestRecord earlier, ApplyRequest request) {
        return earlier.delta() == request.delta()
                ? new Replayed(earlier.resultValue())
                : Rejected.conflicting(request, earlier.delta());
    }

    private static void requireWellFormed(ApplyRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("request must not be null");
        }
        requireText("resource", request.resource());
        requireText("requestId", request.requestId());
        if (request.requestId().length() > ApplyRequest.MAX_REQUEST_ID_LENGTH) {
            throw new IllegalArgumentException("requestId must be at most " + ApplyRequest.MAX_REQUEST_ID_LENGTH
                    + " characters, was " + request.requestId().length());
        }
        if (request.generation() <= 0) {
            throw new IllegalArgumentException("generation must be positive, was " + request.generation());
        }
    }

    private static void requireText(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(field + " must not be null or blank");
        }
        if (text.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(field + " must not contain control characters");
        }
        // Half a surrogate pair cannot be encoded: SQLite would store '?' and two requests would share one id.
        if (text.codePoints().anyMatch(codePoint -> Character.getType(codePoint) == Character.SURROGATE)) {
            throw new IllegalArgumentException(field + " must be well-formed Unicode, with no unpaired surrogate");
        }
    }
}
