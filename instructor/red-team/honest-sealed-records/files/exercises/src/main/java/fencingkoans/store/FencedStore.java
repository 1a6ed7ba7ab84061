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

    /** What the destination knows about a request before deciding: exactly one of these. */
    private sealed interface Lookup permits Remembered, NoSuchResource, Holding {
    }

    /** The request id was seen on this resource before. */
    private record Remembered(RequestRecord record) implements Lookup {
    }

    /** The destination holds no resource of that name. */
    private record NoSuchResource() implements Lookup {
    }

    /** A new request on a resource that holds {@code installed}. */
    private record Holding(long installed) implements Lookup {
    }

    /** Where a presented generation stands against the installed one. */
    private enum Standing {
        STALE, CURRENT, UNISSUED;

        static Standing of(long presented, long installed) {
            return presented < installed ? STALE : presented == installed ? CURRENT : UNISSUED;
        }
    }

    /** One text field of a request, with the most characters it may have. */
    private record TextField(String name, String text, int maxLength) {

        void requireWellFormed() {
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException(name + " must not be null or blank");
            }
            if (text.length() > maxLength) {
                throw new IllegalArgumentException(name + " must have at most " + maxLength + " characters, has "
                        + text.length());
            }
            if (text.codePoints().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException(name + " must not contain control characters");
            }
            // A lone surrogate has no UTF-8 form: SQLite would store it as '?', so two ids would become one.
            if (text.codePoints().anyMatch(point -> Character.getType(point) == Character.SURROGATE)) {
                throw new IllegalArgumentException(name + " must not contain an unpaired surrogate");
            }
        }
    }

    private final Ledger ledger;

    public FencedStore(Ledger ledger) {
        this.ledger = ledger;
    }

    public ApplyResult apply(ApplyRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("request must not be null");
        }
        new TextField("resource", request.resource(), Integer.MAX_VALUE).requireWellFormed();
        new TextField("requestId", request.requestId(), ApplyRequest.MAX_REQUEST_ID_LENGTH).requireWellFormed();
        if (request.generation() < 1) {
            throw new IllegalArgumentException("generation must be at least 1, was " + request.generation());
        }
        return ImmediateTransaction.run(ledger, () -> answer(request, lookUp(request)),
                () -> new Contended(request.resource()));
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

    /** The record is looked up before the generation: a lost answer is recovered even after authority moved on. */
    private Lookup lookUp(ApplyRequest request) {
        Optional<RequestRecord> record = ledger.findRecord(request.resource(), request.requestId());
        if (record.isPresent()) {
            return new Remembered(record.get());
        }
        OptionalLong installed = ledger.installedGeneration(request.resource());
        return installed.isPresent() ? new Holding(installed.getAsLong()) : new NoSuchResource();
    }

    private ApplyResult answer(ApplyRequest request, Lookup lookup) {
        if (lookup instanceof Remembered remembered) {
            RequestRecord record = remembered.record();
            return record.delta() == request.delta() ? new Replayed(record.resultValue())
                    : Rejected.conflicting(request, record.delta());
        }
        if (lookup instanceof Holding holding) {
            long installed = holding.installed();
            return switch (Standing.of(request.generation(), installed)) {
                case STALE -> Rejected.stale(request.generation(), installed);
                case UNISSUED -> Rejected.unissued(request.generation(), installed);
                case CURRENT -> applyAndRecord(request);
            };
        }
        return Rejected.unknownResource(request);
    }

    private ApplyResult applyAndRecord(ApplyRequest request) {
        long value = ledger.addToValue(request.resource(), request.delta());
        ledger.storeRecord(request, value);
        return new Applied(value);
    }
}
