package fencingkoans.koans.support;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_A_START_VALUE;
import static fencingkoans.sqlite.Database.FUND_B;
import static fencingkoans.sqlite.Database.FUND_B_START_VALUE;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.ResourceState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The contract of the course, written as plainly as possible in memory: what {@code FencedStore} and
 * {@code Authority} must answer, and what the database must hold afterwards. No SQL, no transactions, no
 * concurrency: if the real store ever disagrees with this, one of the two is wrong. The last koan of lessons 1, 2
 * and 4 compares your store with it on requests no koan wrote ({@link UnseenRequests}).
 */
public final class ContractModel {

    private record Recorded(long delta, long generation, long resultValue) {
    }

    private final Map<String, ResourceState> resources = new TreeMap<>();
    /** Keyed by resource, then request id, so that the contents come out in the database's order. */
    private final Map<String, Map<String, Recorded>> records = new TreeMap<>();

    public ContractModel() {
        resources.put(FUND_A, new ResourceState(FUND_A, 1, FUND_A_START_VALUE));
        resources.put(FUND_B, new ResourceState(FUND_B, 1, FUND_B_START_VALUE));
    }

    /** The record is looked up first, whatever generation is installed; then the generation must be equal. */
    public ApplyResult apply(ApplyRequest request) {
        Recorded earlier = recordsOf(request.resource()).get(request.requestId());
        if (earlier != null) {
            return earlier.delta() == request.delta()
                    ? new Replayed(earlier.resultValue())
                    : Rejected.conflicting(request, earlier.delta());
        }
        ResourceState state = resources.get(request.resource());
        if (state == null) {
            return Rejected.unknownResource(request);
        }
        if (request.generation() < state.generation()) {
            return Rejected.stale(request.generation(), state.generation());
        }
        if (request.generation() > state.generation()) {
            return Rejected.unissued(request.generation(), state.generation());
        }
        long value = state.value() + request.delta();
        resources.put(state.resource(), new ResourceState(state.resource(), state.generation(), value));
        recordsOf(request.resource()).put(request.requestId(),
                new Recorded(request.delta(), request.generation(), value));
        return new Applied(value);
    }

    /** Whether {@link #apply} would change anything: only then does it reach the value update. */
    public boolean wouldApply(ApplyRequest request) {
        ResourceState state = resources.get(request.resource());
        return state != null && state.generation() == request.generation()
                && !hasRecord(request.resource(), request.requestId());
    }

    public boolean hasRecord(String resource, String requestId) {
        return recordsOf(resource).containsKey(requestId);
    }

    public InstallResult install(String resource, long generation) {
        ResourceState state = resources.get(resource);
        if (state == null) {
            return new InstallResult.UnknownResource(resource);
        }
        if (generation <= state.generation()) {
            return new InstallResult.NotHigher(resource, state.generation(), generation);
        }
        resources.put(resource, new ResourceState(resource, generation, state.value()));
        return new InstallResult.Installed(resource, generation);
    }

    public Optional<ResourceState> read(String resource) {
        return Optional.ofNullable(resources.get(resource));
    }

    public long installedGeneration(String resource) {
        return resources.get(resource).generation();
    }

    /** The stored requests of one resource, as (request id, delta) pairs. */
    public List<Map.Entry<String, Long>> storedRequests(String resource) {
        List<Map.Entry<String, Long>> stored = new ArrayList<>();
        recordsOf(resource).forEach((id, recorded) -> stored.add(Map.entry(id, recorded.delta())));
        return stored;
    }

    /** Every row the database must hold, in the format and order of {@code SqliteDestination.contents()}. */
    public List<String> contents() {
        List<String> rows = new ArrayList<>();
        resources.values().forEach(state -> rows.add(
                "resource|" + state.resource() + "|" + state.generation() + "|" + state.value()));
        records.forEach((resource, byId) -> byId.forEach((id, recorded) -> rows.add("record|" + resource + "|"
                + id + "|" + recorded.delta() + "|" + recorded.generation() + "|" + recorded.resultValue())));
        return rows;
    }

    private Map<String, Recorded> recordsOf(String resource) {
        return records.computeIfAbsent(resource, key -> new TreeMap<>());
    }
}
