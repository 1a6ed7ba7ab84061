package fencingkoans.evidence;

import static fencingkoans.sqlite.Database.FUND_A;
import static fencingkoans.sqlite.Database.FUND_B;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.koans.support.ContractModel;
import fencingkoans.sqlite.Checkpoint;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Draws the next step from a seeded generator, looking at the model so that duplicates, conflicts and stale
 * or invented generations are aimed at what the destination really holds. Same seed, same sequence.
 */
final class StepGenerator {

    static final String UNKNOWN = "fund-C";
    /** Few ids, so that they repeat: across resources, across generations, after faults. */
    private static final int REQUEST_IDS = 30;

    private final Random random;

    StepGenerator(long seed) {
        this.random = new Random(seed);
    }

    int length(int maxSteps) {
        return 1 + random.nextInt(maxSteps);
    }

    Step next(ContractModel model) {
        String resource = random.nextBoolean() ? FUND_A : FUND_B;
        int roll = random.nextInt(100);
        if (roll < 40) {
            return new Step.Apply(request(model, resource));
        }
        if (roll < 55) {
            return new Step.Apply(repeat(model, resource));
        }
        if (roll < 58) {
            return new Step.Apply(new ApplyRequest(UNKNOWN, 1 + random.nextInt(3), id(), delta()));
        }
        if (roll < 72) {
            return install(model, resource);
        }
        if (roll < 80) {
            return new Step.Read(random.nextInt(10) == 0 ? UNKNOWN : resource);
        }
        if (roll < 97) {
            List<Checkpoint> inside = Checkpoint.INSIDE_A_TRANSACTION;
            Checkpoint where = inside.get(random.nextInt(inside.size()));
            return new Step.ApplyWithFault(random.nextBoolean() ? request(model, resource) : repeat(model, resource),
                    where);
        }
        return new Step.Reopen();
    }

    /** Mostly the installed generation; sometimes a stale one, sometimes one nobody issued. */
    private ApplyRequest request(ContractModel model, String resource) {
        return new ApplyRequest(resource, generation(model.installedGeneration(resource)), id(), delta());
    }

    /** An id already stored on the resource, with its own delta (a duplicate) or another one (a conflict). */
    private ApplyRequest repeat(ContractModel model, String resource) {
        List<Map.Entry<String, Long>> stored = model.storedRequests(resource);
        if (stored.isEmpty()) {
            return request(model, resource);
        }
        Map.Entry<String, Long> earlier = stored.get(random.nextInt(stored.size()));
        long delta = random.nextInt(4) == 0 ? earlier.getValue() + 1 + random.nextInt(9) : earlier.getValue();
        return new ApplyRequest(resource, generation(model.installedGeneration(resource)), earlier.getKey(), delta);
    }

    private Step install(ContractModel model, String resource) {
        int roll = random.nextInt(10);
        if (roll == 0) {
            return new Step.Install(UNKNOWN, 2);
        }
        long installed = model.installedGeneration(resource);
        return new Step.Install(resource, roll < 3 ? 1 + random.nextInt((int) installed) : installed + 1
                + random.nextInt(2));
    }

    private long generation(long installed) {
        int roll = random.nextInt(10);
        if (roll < 2 && installed > 1) {
            return 1 + random.nextInt((int) installed - 1);
        }
        return roll == 2 ? installed + 1 + random.nextInt(3) : installed;
    }

    private String id() {
        return "r" + random.nextInt(REQUEST_IDS);
    }

    private long delta() {
        return random.nextInt(2001) - 1000;
    }
}
