package fencingkoans.evidence;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * Puts a JUnit temporary directory on a memory-backed file system (/dev/shm) where there is one. The tests
 * that use it check logic and locking, not the disk: a real file, real connections and real transactions,
 * without paying for thousands of disk flushes. Where there is no such file system, the usual one is used.
 */
public final class InMemoryFileSystem implements TempDirFactory {

    private static final Path SHARED_MEMORY = Path.of("/dev/shm");

    @Override
    public Path createTempDirectory(AnnotatedElementContext elementContext, ExtensionContext extensionContext)
            throws Exception {
        return Files.isDirectory(SHARED_MEMORY) && Files.isWritable(SHARED_MEMORY)
                ? Files.createTempDirectory(SHARED_MEMORY, "evidence")
                : Files.createTempDirectory("evidence");
    }
}
