package fencingkoans.lease;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.Stat;

/**
 * One Curator client of the {@link Ensemble}, with one seam: an action that runs right after this client has
 * read a generation counter, before it does anything with what it read. That is how a race between two issuers
 * is scripted without sleeping; the code under test only ever sees a plain {@link CuratorFramework}.
 */
public final class EnsembleClient implements AutoCloseable {

    private final AtomicReference<Runnable> afterCounterRead = new AtomicReference<>();
    private CuratorFramework curator;

    EnsembleClient() {
    }

    void attach(CuratorFramework client) {
        this.curator = client;
    }

    public CuratorFramework curator() {
        return curator;
    }

    /** Runs {@code action} once, on the reading thread, the next time this client reads a counter. */
    public void onceAfterCounterRead(Runnable action) {
        afterCounterRead.set(action);
    }

    @Override
    public void close() {
        curator.close();
    }

    /** How Curator opens this client's ZooKeeper handles: each reaches the seam after every counter read. */
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
            super(connectString, sessionTimeout, watcher, canBeReadOnly, config);
        }

        @Override
        public byte[] getData(String path, Watcher dataWatcher, Stat stat)
                throws KeeperException, InterruptedException {
            byte[] data = super.getData(path, dataWatcher, stat);
            if (LeasePaths.isCounter(path)) {
                Runnable action = afterCounterRead.getAndSet(null);
                if (action != null) {
                    action.run();
                }
            }
            return data;
        }
    }

    private static ZKClientConfig withDefaults(ZKClientConfig config) {
        return config != null ? config : new ZKClientConfig();
    }
}
