package fencingkoans.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The last step of {@code ./mvnw test}: prints the koan report that the test run left in a file, so that it comes
 * after Maven's own test summary, and ends the build with exit status 1 when something failed. Ending the build
 * here, rather than failing a build step, keeps Maven's dozen lines of failure advice from following the report:
 * its last line, the progress, stays on screen. A run without koans (-DskipTests) leaves no file and this is silent.
 */
public final class PrintReportLast {

    private PrintReportLast() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        if (!Files.exists(file)) {
            return;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Files.delete(file);
        String outcome = lines.isEmpty() ? KoanReport.UNFINISHED : lines.get(0);
        if (outcome.equals(KoanReport.UNFINISHED)) {
            System.out.println();
            System.out.println("The koans stopped before their report: the output above says why.");
        } else {
            lines.subList(1, lines.size()).forEach(System.out::println);
        }
        System.out.flush();
        if (!outcome.equals(KoanReport.PASSED)) {
            System.exit(1);
        }
    }
}
