package fencingkoans.koans.support;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;
import static org.assertj.core.api.Assertions.assertThat;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.ApplyResult.Applied;
import fencingkoans.contract.ApplyResult.Contended;
import fencingkoans.contract.ApplyResult.Rejected;
import fencingkoans.contract.ApplyResult.Replayed;
import fencingkoans.contract.InstallResult;
import fencingkoans.contract.NotWrittenYet;
import fencingkoans.contract.RejectionReason;
import fencingkoans.contract.ResourceState;
import fencingkoans.destination.Destination;
import fencingkoans.destination.Destination.Worker;
import fencingkoans.destination.SqliteDestination;
import fencingkoans.harness.grading.SealedKoanRun;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.Checkpoints;
import fencingkoans.sqlite.InjectedError;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.FencedStore;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests no koan wrote: a sequence of installs, applies and reads drawn at random, answered by the store and by
 * {@link ContractModel} side by side. Each lesson that has such a koan draws only what its own koans, and those of
 * the lessons before it, already pin down, and every sequence meets each kind of step its lesson draws within its
 * first steps, so that a store passes or fails it whatever the seed. The sequence is fixed in a learner's runs and
 * drawn afresh for every graded run ({@link #SEED}), so that no table of answers can know it in advance. Grading
 * recognises these koans by the end of their method's name, {@code OnRequestsNoKoanWrote}.
 */
public final class UnseenRequests {

    /** The system property a graded run sets to a seed of chance; learner code cannot read it. */
    public static final String SEED = SealedKoanRun.UNSEEN_REQUESTS_SEED;
    private static final long LEARNER_SEED = 2_026_12_07L;
    private static final int STEPS = 100;
    private static final int SHOWN_BEFORE = 8;
    private static final int LONGEST_SHOWN_ID = 32;
    private static final Pattern REQUEST_ID = Pattern.compile("requestId=\"[^\"]*\"");
    private static final String UNKNOWN = "fund-C";

    /** One kind of step. Those marked SQLite are pinned by koans that run on SQLite alone. */
    enum Kind {
        INSTALL_HIGHER, INSTALL_EQUAL, INSTALL_LOWER, INSTALL_UNKNOWN, READ,
        APPLY_CURRENT, APPLY_STALE, APPLY_UNISSUED, APPLY_UNKNOWN, APPLY_ZERO, APPLY_WITHDRAWAL,
        REPEAT_SAME, REPEAT_CONFLICT, REPEAT_AFTER_REJECTION, ID_OF_THE_OTHER_RESOURCE,
        MALFORMED_BLANK_ID, MALFORMED_BLANK_RESOURCE, MALFORMED_LONG_ID, MALFORMED_GENERATION,
        /* SQLite: */ MALFORMED_NULL_REQUEST, MALFORMED_CONTROL, MALFORMED_SURROGATE,
        /* SQLite: */ INSTALL_IN_THE_GAP, LOCK_HELD, READER_OPEN, FAILURE_AFTER_UPDATE,
        /* SQLite: */ DUPLICATE_IN_FLIGHT, FAULT_AFTER_RECORD;

        private static final Set<Kind> ON_SQLITE_ALONE = EnumSet.range(MALFORMED_NULL_REQUEST, FAULT_AFTER_RECORD);
    }

    /** What a lesson's sequence may hold: nothing but what the lesson's koans, and those before them, ask for. */
    public enum Scope {
        /** Lesson 1: fund-A alone, a new request id each time, deposits, generations installed upwards, stale ones. */
        STALE_AUTHORITY(false, 1, EnumSet.of(Kind.INSTALL_HIGHER, Kind.READ, Kind.APPLY_CURRENT, Kind.APPLY_STALE)),
        /**
         * Lesson 2: fund-A, fund-B and an unknown fund-C; installs that are not higher; invented generations;
         * withdrawals and zero deltas; malformed requests of every kind.
         */
        CONTRACT_PER_RESOURCE(true, 3, EnumSet.range(Kind.INSTALL_HIGHER, Kind.APPLY_WITHDRAWAL),
                EnumSet.range(Kind.MALFORMED_BLANK_ID, Kind.MALFORMED_SURROGATE)),
        /**
         * Lesson 3, on SQLite: deposits on fund-A and fund-B, disturbed as its koans disturb them: an install in the
         * gap after the check, the write lock held elsewhere, a reader open at the commit, a failure after the update.
         */
        TRANSACTION(true, 1, EnumSet.of(Kind.INSTALL_HIGHER, Kind.READ, Kind.APPLY_CURRENT, Kind.APPLY_STALE),
                EnumSet.range(Kind.INSTALL_IN_THE_GAP, Kind.FAILURE_AFTER_UPDATE)),
        /**
         * Lesson 4: fund-A and fund-B; ids sent again with their delta or another, across generations, after a
         * rejection, and on the other resource; on SQLite, a duplicate in flight and a fault after the record.
         */
        DUPLICATES(true, 5, EnumSet.of(Kind.INSTALL_HIGHER, Kind.READ, Kind.APPLY_CURRENT, Kind.APPLY_STALE,
                Kind.APPLY_UNISSUED, Kind.APPLY_ZERO, Kind.APPLY_WITHDRAWAL),
                EnumSet.range(Kind.REPEAT_SAME, Kind.ID_OF_THE_OTHER_RESOURCE),
                EnumSet.range(Kind.DUPLICATE_IN_FLIGHT, Kind.FAULT_AFTER_RECORD));

        private final boolean bothFunds;
        /** How many of {@link #id}'s shapes the lesson's koans have sent: plain ones first. */
        private final int idShapes;
        private final Set<Kind> kinds = EnumSet.noneOf(Kind.class);

        @SafeVarargs
        Scope(boolean bothFunds, int idShapes, Set<Kind>... kinds) {
            this.bothFunds = bothFunds;
            this.idShapes = idShapes;
            for (Set<Kind> some : kinds) {
                this.kinds.addAll(some);
            }
        }
    }

    @FunctionalInterface
    private interface Installer {
        InstallResult install(String resource, long generation);
    }

    /** One step, done on the contract and on the destination alike; its text is written only for a failure. */
    private record Step(String resource, Supplier<String> text, Function<ContractModel, Object> onContract,
            Supplier<Object> onDestination) {
    }

    private final Random random;
    private final Scope scope;
    private final ContractModel contract = new ContractModel();
    private final Destination course;
    private final Worker worker;
    /** The authority and the committed state, each on one connection kept for the sequence where that is SQLite. */
    private final Installer installer;
    private final Function<String, Optional<ResourceState>> committed;
    /** The worker's own seams, on SQLite; the disturbed kinds use them. */
    private final Checkpoints seams;
    private final List<Kind> kinds;
    /** Every kind not drawn yet: each is drawn, as soon as it can be, before any kind is drawn twice. */
    private final List<Kind> pending;
    private final List<String[]> rejected = new ArrayList<>();
    private Ledger lockHolder;
    private Statement reader;
    private int nextId;

    /** Without a destination ({@code course} null), the sequence can only be drawn, as on SQLite or not. */
    private UnseenRequests(Scope scope, long seed, Destination course, boolean onSqlite) {
        this.random = new Random(seed * 31 + scope.ordinal());
        this.scope = scope;
        this.course = course;
        if (course instanceof SqliteDestination sqlite) {
            FencedStore store = sqlite.store();
            this.worker = store::apply;
            this.seams = store.checkpoints();
            this.installer = sqlite.authority()::install;
            this.committed = sqlite.ledger()::read;
        } else if (course != null) {
            this.worker = course.worker();
            this.seams = null;
            this.installer = course::install;
            this.committed = course::read;
        } else {
            this.worker = null;
            this.seams = null;
            this.installer = null;
            this.committed = null;
        }
        this.kinds = scope.kinds.stream().filter(kind -> onSqlite || !Kind.ON_SQLITE_ALONE.contains(kind)).toList();
        this.pending = new ArrayList<>(kinds);
        this.pending.remove(Kind.READ);
    }

    private UnseenRequests(Scope scope, long seed, Destination course) {
        this(scope, seed, course, course instanceof SqliteDestination);
    }

    /**
     * Runs one sequence on {@code course}, which must be in its start state, and fails at the first step whose answer
     * or whose resource afterwards differs from the contract's, showing that step and the ones before it.
     */
    public static void assertTheStoreFollowsTheContract(Destination course, Scope scope) {
        Long graded = Long.getLong(SEED);
        new UnseenRequests(scope, graded == null ? LEARNER_SEED : graded, course).run(
                graded == null ? "the same in every learner run" : "drawn for this graded run");
    }

    /** The sequence of {@code seed}, as a graded run with that seed would draw it. */
    public static void assertTheStoreFollowsTheContract(Destination course, Scope scope, long seed) {
        new UnseenRequests(scope, seed, course).run("seed " + seed);
    }

    /**
     * The step at which the sequence of {@code seed} has drawn every kind of its scope, on SQLite or not, or -1 if it
     * never does; its steps are drawn and answered by the contract alone.
     */
    public static int everyKindDrawnBy(Scope scope, long seed, boolean onSqlite) {
        UnseenRequests sequence = new UnseenRequests(scope, seed, null, onSqlite);
        for (int i = 1; i <= STEPS; i++) {
            sequence.next().onContract().apply(sequence.contract);
            if (sequence.pending.isEmpty()) {
                return i;
            }
        }
        return -1;
    }

    /** A step done, with the answer it got: the contract's, since the store agreed with it. */
    private record Done(Step step, Object answer) {

        String line() {
            return step.text().get() + "  ->  " + answer;
        }
    }

    private void run(String which) {
        List<Done> done = new ArrayList<>();
        for (int i = 1; i <= STEPS; i++) {
            Step step = next();
            Object expected = pinned(step.onContract().apply(contract));
            Object actual;
            try {
                actual = pinned(step.onDestination().get());
            } catch (NotWrittenYet e) {
                throw e;
            } catch (RuntimeException e) {
                actual = "threw " + e;
            }
            int number = i;
            // Written only for a failure: built for every step, the history made the sequence several times slower.
            Supplier<String> context = () -> String.format("step %d of %d of the requests no koan wrote (%s): %s%n"
                    + "The earlier installs and applies on %s, oldest first, each with the answer it got:%n%s%nWork "
                    + "the step out by the lesson's rules from those: which case does your store not handle in "
                    + "general?", number, STEPS, which, step.text().get(), step.resource(), stepsBefore(done, step));
            assertThat(actual).as(() -> "the answer to " + context.get()).isEqualTo(expected);
            Object committedAfter;
            try {
                committedAfter = committed.apply(step.resource());
            } catch (RuntimeException e) {
                committedAfter = "unreadable: " + e.getMessage() + " (a transaction left open still holds the lock?)";
            }
            assertThat(committedAfter).as(() -> step.resource() + " as committed after " + context.get())
                    .isEqualTo(contract.read(step.resource()));
            done.add(new Done(step, expected));
        }
    }

    /** A kind still pending that can be drawn now, if any; otherwise any kind of the scope that can. */
    private Step next() {
        String resource = scope.bothFunds && random.nextBoolean() ? FUND_B : FUND_A;
        List<Kind> possible = pending.stream().filter(kind -> possible(kind, resource)).toList();
        if (possible.isEmpty()) {
            possible = kinds.stream().filter(kind -> possible(kind, resource)).toList();
        }
        Kind kind = possible.get(random.nextInt(possible.size()));
        pending.remove(kind);
        return step(kind, resource);
    }

    private boolean possible(Kind kind, String resource) {
        return switch (kind) {
            case APPLY_STALE, INSTALL_LOWER -> installed(resource) > 1;
            case REPEAT_SAME, REPEAT_CONFLICT -> !contract.storedRequests(resource).isEmpty();
            case REPEAT_AFTER_REJECTION -> rejected.stream().anyMatch(earlier -> earlier[0].equals(resource));
            case ID_OF_THE_OTHER_RESOURCE -> !contract.storedRequests(other(resource)).isEmpty();
            case APPLY_WITHDRAWAL -> value(resource) > 0;
            default -> true;
        };
    }

    private Step step(Kind kind, String resource) {
        long installed = installed(resource);
        return switch (kind) {
            case INSTALL_HIGHER -> install(resource, installed + 1 + random.nextInt(3));
            case INSTALL_EQUAL -> install(resource, installed);
            case INSTALL_LOWER -> install(resource, 1 + random.nextInt((int) Math.min(installed - 1, 1_000)));
            case INSTALL_UNKNOWN -> install(UNKNOWN, 1 + random.nextInt(3));
            case READ -> {
                String read = random.nextInt(8) == 0 && kinds.contains(Kind.APPLY_UNKNOWN) ? UNKNOWN : resource;
                yield new Step(read, () -> "read " + read, model -> model.read(read), () -> committed.apply(read));
            }
            case APPLY_CURRENT -> apply(fresh(resource, installed, deposit()));
            case APPLY_STALE -> rejectedLater(fresh(resource, 1 + random.nextInt((int) Math.min(installed - 1, 1_000)),
                    deposit()));
            case APPLY_UNISSUED -> rejectedLater(fresh(resource, installed + 1 + random.nextInt(3), deposit()));
            case APPLY_UNKNOWN -> apply(fresh(UNKNOWN, 1 + random.nextInt(3), deposit()));
            case APPLY_ZERO -> apply(fresh(resource, installed, 0));
            case APPLY_WITHDRAWAL -> apply(fresh(resource, installed, -1 - random.nextInt((int) Math.min(
                    value(resource), 1_000))));
            case REPEAT_SAME, REPEAT_CONFLICT -> {
                List<Map.Entry<String, Long>> stored = contract.storedRequests(resource);
                Map.Entry<String, Long> earlier = stored.get(random.nextInt(stored.size()));
                long delta = kind == Kind.REPEAT_SAME ? earlier.getValue()
                        : earlier.getValue() + 1 + random.nextInt(50);
                yield apply(new ApplyRequest(resource, anyGeneration(installed), earlier.getKey(), delta));
            }
            case REPEAT_AFTER_REJECTION -> {
                List<String[]> here = rejected.stream().filter(earlier -> earlier[0].equals(resource)).toList();
                String[] earlier = here.get(random.nextInt(here.size()));
                rejected.remove(earlier);
                yield apply(new ApplyRequest(resource, installed, earlier[1], deposit()));
            }
            case ID_OF_THE_OTHER_RESOURCE -> {
                List<Map.Entry<String, Long>> stored = contract.storedRequests(other(resource));
                String id = stored.get(random.nextInt(stored.size())).getKey();
                yield contract.hasRecord(resource, id) ? apply(fresh(resource, installed, deposit()))
                        : apply(new ApplyRequest(resource, installed, id, deposit()));
            }
            case MALFORMED_BLANK_ID -> malformed("requestId", new ApplyRequest(resource, installed,
                    random.nextBoolean() ? null : "  ", deposit()));
            case MALFORMED_BLANK_RESOURCE -> malformed("resource", new ApplyRequest(random.nextBoolean() ? null
                    : " ".repeat(random.nextInt(3)), installed, id(), deposit()));
            case MALFORMED_LONG_ID -> malformed("requestId", new ApplyRequest(resource, installed,
                    "x".repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH + 1 + random.nextInt(200)), deposit()));
            case MALFORMED_GENERATION -> malformed("generation", new ApplyRequest(resource,
                    random.nextBoolean() ? 0 : -1 - random.nextInt(1_000_000), id(), deposit()));
            case MALFORMED_NULL_REQUEST -> malformed("request", null);
            case MALFORMED_CONTROL -> malformedText(String.valueOf((char) (int) List.of(random.nextInt(0x20), 0x7F,
                    0x80 + random.nextInt(0x20)).get(random.nextInt(3))), resource, installed);
            case MALFORMED_SURROGATE -> malformedText(String.valueOf((char) (0xD800 + random.nextInt(0x800))),
                    resource, installed);
            case INSTALL_IN_THE_GAP -> installInTheGap(fresh(resource, installed, deposit()));
            case LOCK_HELD -> lockHeld(fresh(resource, anyGeneration(installed), deposit()));
            case READER_OPEN -> readerOpen(fresh(resource, installed, deposit()));
            case FAILURE_AFTER_UPDATE -> failureAfterUpdate(fresh(resource, anyGeneration(installed), deposit()));
            case DUPLICATE_IN_FLIGHT -> duplicateInFlight(fresh(resource, installed, deposit()));
            case FAULT_AFTER_RECORD -> faultAfterRecord(fresh(resource, installed, deposit()));
        };
    }

    private Step install(String resource, long offered) {
        return new Step(resource, () -> "install " + resource + " generation " + offered,
                model -> model.install(resource, offered), () -> installer.install(resource, offered));
    }

    private Step apply(ApplyRequest request) {
        return new Step(request.resource(), () -> "apply " + shown(request), model -> model.apply(request),
                () -> worker.apply(request));
    }

    /** An apply the generation turns away; its id is sent again later, when it must apply. */
    private Step rejectedLater(ApplyRequest request) {
        rejected.add(new String[] {request.resource(), request.requestId()});
        return apply(request);
    }

    /** Refused with an IllegalArgumentException naming {@code field}, and nothing changed. */
    private Step malformed(String field, ApplyRequest request) {
        String resource = request != null && FUND_B.equals(request.resource()) ? FUND_B : FUND_A;
        return new Step(resource, () -> "apply " + shown(request),
                model -> "refused: IllegalArgumentException naming '" + field + "'",
                () -> {
                    try {
                        return worker.apply(request);
                    } catch (IllegalArgumentException refusal) {
                        return String.valueOf(refusal.getMessage()).contains(field)
                                ? "refused: IllegalArgumentException naming '" + field + "'"
                                : "refused: IllegalArgumentException not naming '" + field + "': "
                                        + Refusals.printable(refusal.getMessage());
                    }
                });
    }

    /** {@code bad} at the start, inside or at the end of the request id or of the resource. */
    private Step malformedText(String bad, String resource, long installed) {
        int where = random.nextInt(3);
        boolean inTheId = random.nextBoolean();
        String text = inTheId ? id() : resource;
        int cut = 1 + random.nextInt(text.length() - 1);
        String spoilt = where == 0 ? bad + text : where == 1 ? text.substring(0, cut) + bad + text.substring(cut)
                : text + bad;
        return malformed(inTheId ? "requestId" : "resource", inTheId
                ? new ApplyRequest(resource, installed, spoilt, deposit())
                : new ApplyRequest(spoilt, installed, id(), deposit()));
    }

    private Step installInTheGap(ApplyRequest request) {
        String resource = request.resource();
        long offered = installed(resource) + 1;
        return new Step(resource, () -> "apply " + shown(request) + ", and right after it read the generation the "
                + "authority installs generation " + offered + " on " + resource + " (answers: the apply's, then the "
                + "install's)",
                model -> List.of(model.apply(request), new InstallResult.Contended(resource)),
                () -> cleared(() -> {
                    AtomicReference<Object> inTheGap = new AtomicReference<>("no install: apply never read the "
                            + "generation with ledger.installedGeneration");
                    seams.once(Checkpoint.AFTER_GENERATION_READ,
                            () -> inTheGap.set(installer.install(resource, offered)));
                    return List.of(worker.apply(request), inTheGap.get());
                }));
    }

    private Step lockHeld(ApplyRequest request) {
        String resource = request.resource();
        long offered = installed(resource) + 1;
        return new Step(resource, () -> "while another connection holds the write lock: apply " + shown(request)
                + ", then the authority installs generation " + offered + " on " + resource + " (answers: the "
                + "apply's, then the install's)",
                model -> List.of(new Contended(resource), new InstallResult.Contended(resource)),
                () -> whileTheLockIsHeld(() -> List.of(worker.apply(request), installer.install(resource, offered))));
    }

    /** An apply that would write: a rejection writes nothing, and may commit or roll back past the reader. */
    private Step readerOpen(ApplyRequest request) {
        return new Step(request.resource(), () -> "apply " + shown(request) + " while another connection is inside a read "
                + "transaction", model -> new Contended(request.resource()),
                () -> whileAReaderIsOpen(() -> worker.apply(request)));
    }

    private Step failureAfterUpdate(ApplyRequest request) {
        boolean error = random.nextBoolean();
        boolean applies = contract.wouldApply(request);
        String thrown = "threw " + (error ? InjectedError.class : InjectedFault.class).getSimpleName();
        return new Step(request.resource(), () -> "apply " + shown(request) + ", failing with " + (error ? "an Error" : "an "
                + "exception") + " right after its value update, if it gets that far",
                model -> applies ? thrown : model.apply(request),
                () -> failingAt(Checkpoint.AFTER_VALUE_UPDATE, error, request));
    }

    /** The same request from a second worker while the first sits between its record lookup and its effect. */
    private Step duplicateInFlight(ApplyRequest request) {
        String resource = request.resource();
        return new Step(resource, () -> "apply " + shown(request) + "; while it sits right after its record lookup, a "
                + "second worker sends the same request; once the first has answered, the second sends it again "
                + "(answers: the second's in flight, the first's, the second's again)",
                model -> {
                    ApplyResult first = model.apply(request);
                    return List.of(new Contended(resource), first, new Replayed(((Applied) first).value()));
                },
                () -> cleared(() -> {
                    Worker second = ((SqliteDestination) course).worker();
                    AtomicReference<Object> inFlight = new AtomicReference<>("no second apply: the first never "
                            + "looked its record up with ledger.findRecord");
                    seams.once(Checkpoint.AFTER_RECORD_LOOKUP, () -> inFlight.set(second.apply(request)));
                    ApplyResult first = worker.apply(request);
                    return List.of(inFlight.get(), first, second.apply(request));
                }));
    }

    private Step faultAfterRecord(ApplyRequest request) {
        return new Step(request.resource(), () -> "apply " + shown(request) + ", failing right after its record is "
                + "stored; then the same request again (answers: the failing apply's, then the second's)",
                model -> List.of("threw InjectedFault", model.apply(request)),
                () -> List.of(failingAt(Checkpoint.AFTER_RECORD_STORED, false, request), worker.apply(request)));
    }

    private Object failingAt(Checkpoint checkpoint, boolean error, ApplyRequest request) {
        return cleared(() -> {
            seams.once(checkpoint, () -> {
                if (error) {
                    throw new InjectedError(checkpoint);
                }
                throw new InjectedFault(checkpoint);
            });
            try {
                return worker.apply(request);
            } catch (InjectedFault | InjectedError failure) {
                return "threw " + failure.getClass().getSimpleName();
            }
        });
    }

    private Object cleared(Supplier<Object> disturbedApply) {
        try {
            return disturbedApply.get();
        } finally {
            seams.clear();
        }
    }

    private Object whileTheLockIsHeld(Supplier<Object> steps) {
        if (lockHolder == null) {
            lockHolder = ((SqliteDestination) course).ledger();
        }
        lockHolder.execute("BEGIN IMMEDIATE");
        try {
            return steps.get();
        } finally {
            lockHolder.execute("ROLLBACK");
        }
    }

    private Object whileAReaderIsOpen(Supplier<Object> steps) {
        try {
            if (reader == null) {
                reader = ((SqliteDestination) course).connection().createStatement();
            }
            reader.execute("BEGIN");
            reader.executeQuery("SELECT value FROM resources").close();
            try {
                return steps.get();
            } finally {
                reader.execute("COMMIT");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the reader of lesson 3's sequence failed: " + e.getMessage(), e);
        }
    }

    private ApplyRequest fresh(String resource, long generation, long delta) {
        return new ApplyRequest(resource, generation, id(), delta);
    }

    /**
     * Ids of the shapes the lesson's koans sent: plain; with letters beyond ASCII; the longest allowed; a LIKE
     * wildcard inside; a space at the end.
     */
    private String id() {
        int n = nextId++;
        return switch (random.nextInt(scope.idShapes)) {
            case 1 -> "\u00e9-" + n;
            case 2 -> (n + "-\u00e9").repeat(ApplyRequest.MAX_REQUEST_ID_LENGTH)
                    .substring(0, ApplyRequest.MAX_REQUEST_ID_LENGTH);
            case 3 -> "r_" + n;
            case 4 -> "u" + n + " ";
            default -> "u-" + n;
        };
    }

    private long deposit() {
        return 1 + random.nextInt(1_000);
    }

    /** Mostly the installed generation; sometimes an older one or one never issued, where the scope knows them. */
    private long anyGeneration(long installed) {
        int roll = random.nextInt(10);
        if (roll < 2 && installed > 1) {
            return 1 + random.nextInt((int) Math.min(installed - 1, 1_000));
        }
        return roll == 2 && kinds.contains(Kind.APPLY_UNISSUED) ? installed + 1 + random.nextInt(3) : installed;
    }

    private long installed(String resource) {
        return contract.read(resource).map(state -> state.generation()).orElse(1L);
    }

    private long value(String resource) {
        return contract.read(resource).map(state -> state.value()).orElse(0L);
    }

    private static String other(String resource) {
        return FUND_A.equals(resource) ? FUND_B : FUND_A;
    }

    /**
     * What the koans pin down of an answer. An unknown resource's rejection is pinned by its reason alone, so that is
     * all that is compared of it.
     */
    private static Object pinned(Object answer) {
        if (answer instanceof Rejected rejected && rejected.reason() == RejectionReason.UNKNOWN_RESOURCE) {
            return "Rejected[reason=" + rejected.reason() + "]";
        }
        return answer;
    }

    /** The last steps on the resource, after every earlier step there that sent the same request id. */
    private static String stepsBefore(List<Done> done, Step step) {
        String resource = step.resource();
        Matcher id = REQUEST_ID.matcher(step.text().get());
        String sameId = id.find() ? id.group() : null;
        List<String> onResource = done.stream().filter(earlier -> earlier.step().resource().equals(resource))
                .filter(earlier -> !earlier.step().text().get().startsWith("read ")).map(Done::line).toList();
        List<String> shown = new ArrayList<>(onResource.subList(Math.max(0, onResource.size() - SHOWN_BEFORE),
                onResource.size()));
        List<String> withTheId = onResource.subList(0, onResource.size() - shown.size()).stream()
                .filter(line -> sameId != null && line.contains(sameId)).toList();
        shown.addAll(0, withTheId);
        String earlier = onResource.size() > shown.size() ? "  (" + (onResource.size() - shown.size()) + " earlier "
                + (withTheId.isEmpty() ? "ones" : "ones with other ids") + " left out)\n" : "";
        Done last = done.isEmpty() ? null : done.get(done.size() - 1);
        String onOthers = last == null || last.step().resource().equals(resource) ? ""
                : "\n  and right before this step, on " + last.step().resource() + ": " + last.line();
        return (shown.isEmpty() ? "  none: it is the first step on " + resource
                : earlier + "  " + String.join("\n  ", shown)) + onOthers;
    }

    /** The request as a person can read it: a long id shortened to its start, its end and its length. */
    private static String shown(ApplyRequest request) {
        String text = Refusals.printable(String.valueOf(request));
        String id = request == null ? null : request.requestId();
        if (id == null || id.length() <= LONGEST_SHOWN_ID) {
            return text;
        }
        return text.replace('"' + Refusals.printable(id) + '"', '"' + Refusals.printable(id.substring(0, 12)) + "..."
                + Refusals.printable(id.substring(id.length() - 4)) + "\" (" + id.length() + " characters)");
    }
}
