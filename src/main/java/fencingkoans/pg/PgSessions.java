package fencingkoans.pg;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Real connections to one course database, kept open once closed, so that a koan's new session costs a reset
 * instead of a new server process (about 30 ms each, and a lesson 6 run opens about a hundred). A session handed
 * back is rolled back and {@code DISCARD ALL}-ed first: no transaction, lock, temporary table, setting or prepared
 * statement of its earlier user is left, as in a session just opened; one that had temporary objects is closed
 * instead. Given code.
 */
final class PgSessions implements AutoCloseable {

    private final Map<PgRole, Deque<Connection>> idle = new EnumMap<>(PgRole.class);

    /** A session as {@code role}: an idle one, else a new one from {@code open}; its close hands it back. */
    synchronized Connection take(PgRole role, Supplier<Connection> open) {
        Connection kept = idle.computeIfAbsent(role, any -> new ArrayDeque<>()).poll();
        Connection session = kept != null ? kept : open.get();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Lent(role, session));
    }

    /** Closes every idle session for good. */
    @Override
    public synchronized void close() {
        idle.values().forEach(sessions -> sessions.forEach(PgSessions::closeQuietly));
        idle.clear();
    }

    private synchronized void handBack(PgRole role, Connection session) {
        try {
            if (!session.getAutoCommit()) {
                session.rollback();
                session.setAutoCommit(true);
            }
            try (Statement statement = session.createStatement()) {
                // A session that had temporary objects closes for good: DISCARD ALL drops them, but a function
                // compiled against one of them (a caller's temporary type, say) would keep pointing at it.
                try (ResultSet temporary = statement.executeQuery("SELECT pg_catalog.pg_my_temp_schema() <> 0")) {
                    temporary.next();
                    if (temporary.getBoolean(1)) {
                        closeQuietly(session);
                        return;
                    }
                }
                statement.execute("DISCARD ALL");
            }
            idle.get(role).push(session);
        } catch (SQLException brokenSession) {
            closeQuietly(session);
        }
    }

    private static void closeQuietly(Connection session) {
        try {
            session.close();
        } catch (SQLException alreadyGone) {
            // A session the server has already dropped (a dropped database, say) has nothing left to close.
        }
    }

    /** One user's hold on a session: closing it hands the session back, once; after that it behaves as closed. */
    private final class Lent implements InvocationHandler {

        private final PgRole role;
        private final Connection session;
        private boolean closed;

        Lent(PgRole role, Connection session) {
            this.role = role;
            this.session = session;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "close" -> {
                    if (!closed) {
                        closed = true;
                        handBack(role, session);
                    }
                    return null;
                }
                case "isClosed" -> {
                    return closed || session.isClosed();
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                default -> {
                    if (closed) {
                        throw new SQLException("this session was closed", "08003");
                    }
                    try {
                        return method.invoke(session, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            }
        }
    }
}
