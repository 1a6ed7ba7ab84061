package fencingkoans.lease;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * Who a ZooKeeper client says it is, with ZooKeeper's digest scheme: a name and a password that the client adds
 * to its session. Only the issuer may change a generation counter; a worker may read it.
 */
public enum Identity {
    ISSUER("issuer", "issuer-secret"),
    WORKER("worker", "worker-secret");

    private final String name;
    private final String password;

    Identity(String name, String password) {
        this.name = name;
        this.password = password;
    }

    /** What a client adds to its session to be this identity: {@code builder.authorization("digest", ...)}. */
    public byte[] credentials() {
        return (name + ":" + password).getBytes(StandardCharsets.UTF_8);
    }

    /** The ACL a counter node is created with: everything for the issuer, reading for anyone. */
    public static List<ACL> counterAcl() {
        return List.of(new ACL(Perms.ALL, ISSUER.digestId()), new ACL(Perms.READ, new Id("world", "anyone")));
    }

    private Id digestId() {
        try {
            return new Id("digest", DigestAuthenticationProvider.generateDigest(name + ":" + password));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-1 for ZooKeeper's digest scheme", e);
        }
    }
}
