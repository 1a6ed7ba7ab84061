package fencingkoans.outside;

import java.util.ArrayList;
import java.util.List;

/**
 * Stands for a service outside the database (a payment API, a mailer). Whatever it is asked to do happens at
 * once and stays done: no database rollback reaches it. It remembers every call so the koans can see them.
 */
public final class ExternalService {

    private final List<String> calls = new ArrayList<>();

    public synchronized void call(String message) {
        calls.add(message);
    }

    public synchronized List<String> calls() {
        return List.copyOf(calls);
    }
}
