package fencingkoans.workshop;

import fencingkoans.contract.ApplyRequest;
import fencingkoans.contract.ApplyResult;
import fencingkoans.contract.InstallResult;
import fencingkoans.lab.Scene;

/**
 * What a disturbance that plays the same on SQLite and on PostgreSQL needs from the destination, so that its
 * story is told once and the two outputs can be read side by side.
 */
interface Destination {

    /** A worker that applies requests on a session of its own. */
    interface Worker {
        ApplyResult apply(ApplyRequest request);
    }

    void observe(String line);

    Worker worker();

    /** The trusted authority installs a higher generation. */
    InstallResult install(String resource, long generation);

    /** The resource's generation, value and number of request records, in one line. */
    String describe(String resource);

    /** The SQLite destination of a scene, with the reference store and authority the build compiled. */
    static Destination of(Scene scene) {
        return new Destination() {
            @Override
            public void observe(String line) {
                scene.observe(line);
            }

            @Override
            public Worker worker() {
                return scene.store()::apply;
            }

            @Override
            public InstallResult install(String resource, long generation) {
                return scene.authority().install(resource, generation);
            }

            @Override
            public String describe(String resource) {
                return scene.describe(resource);
            }
        };
    }
}
