package fencingkoans.lab;

import static fencingkoans.sqlite.Database.FUND_A;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.outside.ExternalService;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedFault;
import fencingkoans.sqlite.Ledger;
import fencingkoans.store.Authority;
import fencingkoans.store.Counterexamples;
import fencingkoans.store.FencedStore;
import java.io.IOException;
import java.sql.Connection;

/**
 * The lab as a story: each scenario runs on a fresh temporary database with whichever store the build
 * compiled (the learner's or the reference), and every line it prints reports something it just observed.
 */
public final class LabWalkthrough {

    private LabWalkthrough() {
    }

    public static void main(String[] args) throws IOException {
        ObservedRun.play(System.out, ObservedRun.systemTemporaryDirectory(), "Lab walkthrough", run -> {
            run.scenario("1. A long pause: authority read earlier goes stale", LabWalkthrough::stalePause);
            run.scenario("2. A larger generation, invented by the worker", LabWalkthrough::inventedGeneration);
            run.scenario("3. The check and the effect in one transaction", LabWalkthrough::checkInsideTransaction);
            run.scenario("4. A duplicate and a lost response", LabWalkthrough::duplicates);
            run.scenario("5. A fault between the update and the record", LabWalkthrough::faultMidway);
            run.scenario("6. Paths around the protection", LabWalkthrough::pathsAround);
            run.scenario("7. The same paths on PostgreSQL, closed by roles (lesson 6)", PostgresPaths::play);
            run.scenario("8. A lease lost during a pause, on a ZooKeeper ensemble (lesson 7)", LeasePause::play);
        });
    }

    private static void stalePause(Scene scene) {
        FencedStore workerA = scene.store();
        Authority authority = scene.authority();
        long seen = workerA.read(FUND_A).orElseThrow().generation();
        scene.observe("worker A reads fund-A: generation " + seen);
        scene.observe("the authority installs generation 2: " + authority.install(FUND_A, 2).describe());
        scene.observe("worker A resumes and applies with generation " + seen + ": "
                + workerA.apply(new ApplyRequest(FUND_A, seen, "a-1", 5)).describe());
        scene.observe("fund-A's value is now " + scene.value(FUND_A));
        FencedStore workerB = scene.store();
        scene.observe("worker B applies with generation 2: "
                + workerB.apply(new ApplyRequest(FUND_A, 2, "b-1", 5)).describe());
    }

    private static void inventedGeneration(Scene scene) {
        FencedStore worker = scene.store();
        scene.observe("a worker presents generation 99 while 1 is installed: "
                + worker.apply(new ApplyRequest(FUND_A, 99, "bold-1", 5)).describe());
        scene.observe("fund-A's value is still " + scene.value(FUND_A));
    }

    private static void checkInsideTransaction(Scene scene) {
        Ledger carefulWorker = scene.ledger();
        Authority authority = scene.authority();
        carefulWorker.checkpoints().once(Checkpoint.AFTER_GENERATION_READ,
                () -> scene.observe("  between its check and its write, the authority installs generation 2: "
                        + authority.install(FUND_A, 2).describe()));
        scene.observe("a worker without the store checks fund-A's generation right before writing");
        long checked = carefulWorker.installedGeneration(FUND_A).orElseThrow();
        carefulWorker.addToValue(FUND_A, 5);
        scene.observe("its check read generation " + checked + ", and its write landed: fund-A's value is "
                + scene.value(FUND_A) + " under generation " + scene.generation(FUND_A));

        FencedStore workerA = scene.store();
        workerA.checkpoints().once(Checkpoint.AFTER_GENERATION_READ,
                () -> scene.observe("  while apply sits between its check and its effect, the authority "
                        + "tries to install generation 3: " + authority.install(FUND_A, 3).describe()));
        scene.observe("worker A applies through the store with generation 2");
        ApplyResult result = workerA.apply(new ApplyRequest(FUND_A, 2, "a-1", 7));
        scene.observe("worker A's apply: " + result.describe());
        scene.observe("after the commit, the authority retries: " + authority.install(FUND_A, 3).describe());
    }

    private static void duplicates(Scene scene) {
        FencedStore worker = scene.store();
        ApplyRequest r1 = new ApplyRequest(FUND_A, 1, "r1", 7);
        scene.observe("r1 (delta 7): " + worker.apply(r1).describe());
        scene.observe("r2 (delta 5): " + worker.apply(new ApplyRequest(FUND_A, 1, "r2", 5)).describe());
        scene.observe("r1 sent again: " + worker.apply(r1).describe());
        scene.observe("a read says fund-A's value is " + scene.value(FUND_A) + ": a replay is never a read");
        scene.observe("r1 reused with delta 9: "
                + worker.apply(new ApplyRequest(FUND_A, 1, "r1", 9)).describe());
        scene.observe("the authority installs generation 2: " + scene.authority().install(FUND_A, 2).describe());
        scene.observe("the worker whose answer to r1 was lost retries it with generation 1: "
                + worker.apply(r1).describe());
    }

    private static void faultMidway(Scene scene) {
        FencedStore worker = scene.store();
        worker.checkpoints().once(Checkpoint.AFTER_VALUE_UPDATE, () -> {
            throw new InjectedFault(Checkpoint.AFTER_VALUE_UPDATE);
        });
        scene.observe("r1 with a fault injected after the value update: "
                + attempt(worker, new ApplyRequest(FUND_A, 1, "r1", 7)));
        scene.observe("fund-A's value is " + scene.value(FUND_A) + "; r1 retried: "
                + worker.apply(new ApplyRequest(FUND_A, 1, "r1", 7)).describe());
    }

    private static void pathsAround(Scene scene) {
        Authority authority = scene.authority();
        FencedStore staleWorker = scene.store();
        scene.observe("the authority installs generation 2: " + authority.install(FUND_A, 2).describe());
        scene.observe("a worker with generation 1 applies through the store: "
                + staleWorker.apply(new ApplyRequest(FUND_A, 1, "a-1", 5)).describe());
        Connection direct = scene.connection();
        Counterexamples.writeAroundTheStore(direct, FUND_A, 1_000);
        scene.observe("the same worker writes fund-A = 1000 with plain SQL: the value is now "
                + scene.value(FUND_A));
        Counterexamples.restoreGeneration(direct, FUND_A, 1);
        scene.observe("a bad recovery puts generation " + scene.generation(FUND_A)
                + " back; the stale worker retries: "
                + staleWorker.apply(new ApplyRequest(FUND_A, 1, "a-1", 5)).describe());
        ExternalService payments = new ExternalService();
        staleWorker.checkpoints().once(Checkpoint.AFTER_RECORD_STORED, () -> {
            throw new InjectedFault(Checkpoint.AFTER_RECORD_STORED);
        });
        String outcome;
        try {
            Counterexamples.applyWithExternalCallInside(staleWorker, new ApplyRequest(FUND_A, 1, "a-2", 3),
                    payments);
            outcome = "it committed";
        } catch (InjectedFault fault) {
            outcome = "it rolled back (" + fault.getMessage() + ")";
        }
        scene.observe("an apply that calls a payment service inside its transaction fails before commit: "
                + outcome + "; fund-A's value is " + scene.value(FUND_A) + ", yet the service received "
                + payments.calls());
    }

    private static String attempt(FencedStore store, ApplyRequest request) {
        try {
            return store.apply(request).describe();
        } catch (InjectedFault fault) {
            return "failed with " + fault.getMessage();
        }
    }
}
