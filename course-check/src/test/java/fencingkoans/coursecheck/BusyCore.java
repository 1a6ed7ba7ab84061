package fencingkoans.coursecheck;

/** Keeps one core busy with pure computation until closed, so that scheduling differs from a quiet machine. */
final class BusyCore implements AutoCloseable {

    private volatile boolean running = true;
    private final Thread spinner = new Thread(this::spin, "busy-core");

    BusyCore() {
        spinner.setDaemon(true);
        spinner.start();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        spinner.join();
    }

    private void spin() {
        long mixed = 1;
        while (running) {
            mixed = mixed * 6364136223846793005L + 1442695040888963407L;
        }
        // Published so that the loop cannot be optimised away.
        if (mixed == 0) {
            System.out.println("busy-core " + mixed);
        }
    }
}
