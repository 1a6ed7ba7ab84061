package fencingkoans.harness.grading;

import fencingkoans.harness.KoanLauncher;
import fencingkoans.harness.KoanResults;
import fencingkoans.harness.KoanThread;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Set;

/**
 * The graded JVM's side of the sealed channel. Before any learner class can load it reads the grader's one-time
 * token and the koans to leave out from standard input, connects to the grader's socket and proves the token;
 * then it runs the koans and sends every start and every result over that socket, and nothing else. Standard
 * output is only a log: whatever learner code prints there grades nothing.
 */
public final class SealedKoanRun {

    static final String STARTED = "started";
    static final String RESULT = "result";
    static final String DONE = "done";
    /** The seed of the koans on requests no koan wrote ({@code koans.support.UnseenRequests}), new for every run. */
    public static final String UNSEEN_REQUESTS_SEED = "koans.unseen-requests.seed";
    private static final int MAX_DETAIL = 400;

    private SealedKoanRun() {
    }

    /** Arguments: the grader's Unix-domain socket, then the per-koan timeout (for example "40 s"). */
    public static void main(String[] args) throws IOException {
        BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String token = input.readLine();
        String leaveOut = input.readLine();
        System.setIn(new ByteArrayInputStream(new byte[0]));
        // The requests no koan wrote are drawn afresh for this run, from a seed learner code cannot read.
        System.setProperty(UNSEEN_REQUESTS_SEED, Long.toString(new SecureRandom().nextLong()));
        try (SocketChannel socket = SocketChannel.open(StandardProtocolFamily.UNIX);
                PrintWriter channel = new PrintWriter(Channels.newOutputStream(socket), true, StandardCharsets.UTF_8)) {
            socket.connect(UnixDomainSocketAddress.of(args[0]));
            channel.println(token);
            KoanResults results = new KoanResults(
                    key -> send(channel, STARTED + " " + key),
                    result -> send(channel, RESULT + " " + result.key() + " " + result.status() + " "
                            + Base64.getEncoder().encodeToString(shortened(result.detail()).getBytes(StandardCharsets.UTF_8))));
            // The lessons and their koans in an order of chance, new for every graded JVM: learner code that counts
            // the stores and calls it has seen cannot tell from the count which koan it serves.
            new KoanLauncher().run(SealedKoanRun.class.getClassLoader(), Map.of(
                    "koans.focus", "off",
                    "junit.jupiter.testclass.order.default", "org.junit.jupiter.api.ClassOrderer$Random",
                    "junit.jupiter.testmethod.order.default", "org.junit.jupiter.api.MethodOrderer$Random",
                    KoanThread.LIMIT, args[1]),
                    leaveOut == null || leaveOut.isBlank() ? Set.of() : Set.of(leaveOut.split(",")), results);
            send(channel, DONE);
        }
        // Threads a koan left behind must not keep this JVM, or its grade, waiting.
        Runtime.getRuntime().halt(0);
    }

    private static String shortened(String detail) {
        return detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) + "..." : detail;
    }

    private static void send(PrintWriter channel, String line) {
        synchronized (channel) {
            channel.println(line);
        }
    }
}
