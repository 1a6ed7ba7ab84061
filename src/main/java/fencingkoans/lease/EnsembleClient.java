package fencingkoans.lease;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * One Curator client of the {@link Ensemble}, with seams: an action that runs right after this client has looked at
 * a generation counter, before it does anything with what it saw, one that runs right before it sends a lease's
 * create, and one right after it has created a lease. That is how a race between two issuers or two workers, or a
 * quorum lost halfway through a grant, is scripted without sleeping; the code under test only ever sees a plain
 * {@link CuratorFramework}.
 */
public final class EnsembleClient implements AutoCloseable {

    private final AtomicReference<Runnable> afterCounterRead = new AtomicReference<>();
    private final AtomicReference<Runnable> afterCounterWritten = new AtomicReference<>();
    private final AtomicReference<Runnable> beforeCounterWritten = new AtomicReference<>();
    private final AtomicReference<Runnable> beforeLeaseCreated = new AtomicReference<>();
    private final AtomicReference<Runnable> afterLeaseCreated = new AtomicReference<>();
    private CuratorFramework curator;

    EnsembleClient() {
    }

    void attach(CuratorFramework client) {
        this.curator = client;
    }

    public CuratorFramework curator() {
        return curator;
    }

    /**
     * Runs {@code action} once, on the reading thread, the next time this client reads a counter or asks whether it
     * exists, whether it found one or not.
     */
    public void onceAfterCounterRead(Runnable action) {
        afterCounterRead.set(action);
    }

    /** Runs {@code action} once, on the writing thread, right before this client next sends a counter write. */
    public void onceBeforeCounterWritten(Runnable action) {
        beforeCounterWritten.set(action);
    }

    /** Runs {@code action} once, on the writing thread, right after this client next writes a counter. */
    public void onceAfterCounterWritten(Runnable action) {
        afterCounterWritten.set(action);
    }

    /** Runs {@code action} once, on the creating thread, right before this client next sends a lease's create. */
    public void onceBeforeLeaseCreated(Runnable action) {
        beforeLeaseCreated.set(action);
    }

    /** Runs {@code action} once, on the creating thread, the next time this client creates a lease. */
    public void onceAfterLeaseCreated(Runnable action) {
        afterLeaseCreated.set(action);
    }

    @Override
    public void close() {
        curator.close();
    }

    /** How Curator opens this client's ZooKeeper handles: each reaches the seams after every counter read and lease. */
    ZookeeperFactory zookeeperFactory() {
        return new ZookeeperFactory() {
            @Override
            public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
                    boolean canBeReadOnly) throws IOException {
                return newZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, null);
            }

            @Override
            public ZooKeeper newZooKeeper(String connectString, int sessionTimeout, Watcher watcher,
                    boolean canBeReadOnly, ZKClientConfig config) throws IOException {
                return new SeamedZooKeeper(connectString, sessionTimeout, watcher, canBeReadOnly, withDefaults(config));
            }
        };
    }

    private final class SeamedZooKeeper extends ZooKeeper {

        SeamedZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
                ZKClientConfig config) throws IOException {
            super(connectString, sessionTimeout, watcher, canBeReadOnly, new LocalServers(connectString), config);
        }

        @Override
        public byte[] getData(String path, Watcher dataWatcher, Stat stat)
                throws KeeperException, InterruptedException {
            try {
                return super.getData(path, dataWatcher, stat);
            } finally {
                // Also after a read that found no counter: two issuers may both find it missing.
                afterRead(path);
            }
        }

        /** Only a write that went through: a compare-and-set that lost reaches no seam. */
        @Override
        public Stat setData(String path, byte[] data, int version) throws KeeperException, InterruptedException {
            if (LeasePaths.isCounter(path)) {
                runOnce(beforeCounterWritten);
            }
            Stat written = super.setData(path, data, version);
            if (LeasePaths.isCounter(path)) {
                runOnce(afterCounterWritten);
            }
            return written;
        }

        /** A look whether the counter exists is a read of it too. */
        @Override
        public Stat exists(String path, Watcher watcher) throws KeeperException, InterruptedException {
            try {
                return super.exists(path, watcher);
            } finally {
                afterRead(path);
            }
        }

        private void afterRead(String path) {
            if (LeasePaths.isCounter(path)) {
                runOnce(afterCounterRead);
            }
        }

        @Override
        public String create(String path, byte[] data, List<ACL> acl, CreateMode createMode)
                throws KeeperException, InterruptedException {
            beforeLease(path);
            return afterLease(super.create(path, data, acl, createMode));
        }

        /** The form Curator uses. */
        @Override
        public String create(String path, byte[] data, List<ACL> acl, CreateMode createMode, Stat stat, long ttl)
                throws KeeperException, InterruptedException {
            beforeLease(path);
            return afterLease(super.create(path, data, acl, createMode, stat, ttl));
        }

        private void beforeLease(String path) {
            if (LeasePaths.isLease(path)) {
                runOnce(beforeLeaseCreated);
            }
        }

        private String afterLease(String created) {
            if (LeasePaths.isLease(created)) {
                runOnce(afterLeaseCreated);
            }
            return created;
        }
    }

    private static void runOnce(AtomicReference<Runnable> seam) {
        Runnable action = seam.getAndSet(null);
        if (action != null) {
            action.run();
        }
    }

    private static ZKClientConfig withDefaults(ZKClientConfig config) {
        return config != null ? config : new ZKClientConfig();
    }
}
