package fencingkoans.destination;

import java.util.ArrayDeque;
import java.util.Deque;

/** The connections a destination opened, closed newest first; a failure to close one stops none of the others. */
final class Opened {

    private final Deque<AutoCloseable> connections = new ArrayDeque<>();

    <T extends AutoCloseable> T keep(T connection) {
        connections.push(connection);
        return connection;
    }

    void closeAll() {
        IllegalStateException failure = null;
        while (!connections.isEmpty()) {
            try {
                connections.pop().close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing a connection to the destination", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
