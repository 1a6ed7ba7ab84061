package fencingkoans.evidence;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.koans.support.ContractModel;
import fencingkoans.sqlite.Checkpoint;
import fencingkoans.sqlite.InjectedFault;

/**
 * One operation of a random sequence, with concrete arguments, so that a failing sequence can be printed,
 * replayed and shortened. Each step says what the model answers and what the real store answers.
 */
sealed interface Step {

    /** The model's answer; the model moves on as the contract says. */
    Object onModel(ContractModel model);

    /** The real answer, an exception included: a destination that throws where the model answers is a divergence. */
    Object onStore(SequenceConnections held);

    /** The same step for a worker without seams: an apply with a fault becomes a plain apply. */
    default Step withoutFault() {
        return this;
    }

    record Install(String resource, long generation) implements Step {
        public Object onModel(ContractModel model) {
            return model.install(resource, generation);
        }

        public Object onStore(SequenceConnections held) {
            return held.authority().install(resource, generation);
        }
    }

    record Apply(ApplyRequest request) implements Step {
        public Object onModel(ContractModel model) {
            return model.apply(request);
        }

        public Object onStore(SequenceConnections held) {
            return held.worker().apply(request);
        }
    }

    /** An apply that fails at a checkpoint: when it gets that far, nothing of it may remain. */
    record ApplyWithFault(ApplyRequest request, Checkpoint where) implements Step {
        public Object onModel(ContractModel model) {
            return reachesTheFault(model) ? thrown(new InjectedFault(where)) : model.apply(request);
        }

        public Object onStore(SequenceConnections held) {
            return held.applyFailingAt(request, where);
        }

        @Override
        public Step withoutFault() {
            return new Apply(request);
        }

        private boolean reachesTheFault(ContractModel model) {
            // The record is looked up first, on every apply; the generation is read only when no record answers;
            // the update and the record only on success.
            if (where == Checkpoint.AFTER_RECORD_LOOKUP) {
                return true;
            }
            return where == Checkpoint.AFTER_GENERATION_READ
                    ? !model.hasRecord(request.resource(), request.requestId())
                    : model.wouldApply(request);
        }
    }

    record Read(String resource) implements Step {
        public Object onModel(ContractModel model) {
            return model.read(resource);
        }

        public Object onStore(SequenceConnections held) {
            return held.read().apply(resource);
        }
    }

    /** Closes every connection and opens new ones: committed state must survive it, and nothing else. */
    record Reopen() implements Step {
        public Object onModel(ContractModel model) {
            return "reopened";
        }

        /** {@link ModelCheck} closes and opens the connections: a step sees only what the sequence holds. */
        public Object onStore(SequenceConnections held) {
            return "reopened";
        }
    }

    /** How an exception is compared: its type and message, never its stack. */
    static String thrown(RuntimeException exception) {
        return "threw " + exception.getClass().getSimpleName() + ": " + exception.getMessage();
    }
}
