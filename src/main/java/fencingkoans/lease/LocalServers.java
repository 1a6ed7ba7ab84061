package fencingkoans.lease;

import java.net.InetSocketAddress;
import java.util.Collection;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.HostProvider;
import org.apache.zookeeper.client.StaticHostProvider;

/**
 * The servers a client of the {@link Ensemble} tries, in ZooKeeper's own order, with a short pause after trying every
 * server once instead of ZooKeeper's second. That second spares remote servers a storm of reconnections; these three
 * run in this JVM. With it, an operation that no server can answer could fail a second later than it needs to:
 * lesson 7's koan without a quorum waits on that twice.
 */
final class LocalServers implements HostProvider {

    /** Long enough that a client no server accepts does not spin, short beside ZooKeeper's own second. */
    private static final long PAUSE_AFTER_EVERY_SERVER_MS = 50;

    private final StaticHostProvider servers;

    LocalServers(String connectString) {
        this.servers = new StaticHostProvider(new ConnectStringParser(connectString).getServerAddresses());
    }

    @Override
    public int size() {
        return servers.size();
    }

    @Override
    public InetSocketAddress next(long pauseAfterEveryServerWasTried) {
        return servers.next(PAUSE_AFTER_EVERY_SERVER_MS);
    }

    @Override
    public void onConnected() {
        servers.onConnected();
    }

    @Override
    public boolean updateServerList(Collection<InetSocketAddress> serverAddresses, InetSocketAddress currentHost) {
        return servers.updateServerList(serverAddresses, currentHost);
    }
}
