package fencingkoans.harness.grading;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Reads what surefire recorded for each test case from its XML reports. Surefire names a case either by its
 * class and method or, when configured to use display names, by "1.2 a worker ..."; both are recorded, so a
 * koan is found whichever way the reports name it.
 */
final class SurefireReports {

    private static final Pattern KOAN_NAME = Pattern.compile("^(\\d+\\.\\d+) ");
    private static final int MESSAGE_LIMIT = 300;

    private SurefireReports() {
    }

    /** Outcomes keyed by {@link #key(String, String)} and by koan number. No report at all: the koans never ran. */
    static Map<String, KoanOutcome> read(Path reportDirectory) {
        List<Path> reports;
        try (Stream<Path> files = Files.list(reportDirectory)) {
            reports = files.filter(file -> file.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("no test reports in " + reportDirectory + ": the koans did not run", e);
        }
        if (reports.isEmpty()) {
            throw new IllegalStateException("no test reports in " + reportDirectory + ": the koans did not run");
        }
        Map<String, KoanOutcome> outcomes = new HashMap<>();
        for (Path report : reports) {
            NodeList cases = parse(report).getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testCase = (Element) cases.item(i);
                KoanOutcome outcome = outcomeOf(testCase);
                String name = testCase.getAttribute("name");
                outcomes.put(key(testCase.getAttribute("classname"), name), outcome);
                Matcher number = KOAN_NAME.matcher(name);
                if (number.find()) {
                    outcomes.put(number.group(1), outcome);
                }
            }
        }
        return outcomes;
    }

    static String key(String className, String methodName) {
        return className + "#" + methodName;
    }

    private static KoanOutcome outcomeOf(Element testCase) {
        for (Node child = testCase.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element) {
                String message = firstLine(element.getAttribute("message"));
                switch (element.getTagName()) {
                    case "skipped":
                        return new KoanOutcome(KoanStatus.SKIPPED, message);
                    case "failure":
                    case "error":
                        return new KoanOutcome(statusOfProblem(element), message);
                    default:
                        break;
                }
            }
        }
        return new KoanOutcome(KoanStatus.PASSED, "");
    }

    /** JUnit's per-koan timeout reports a TimeoutException; that is a hang or a loop, graded as failed. */
    private static KoanStatus statusOfProblem(Element problem) {
        String text = problem.getAttribute("type") + " " + problem.getAttribute("message");
        if (text.contains("TimeoutException") || text.contains("timed out after")) {
            return KoanStatus.TIMED_OUT;
        }
        return problem.getTagName().equals("error") ? KoanStatus.ERROR : KoanStatus.FAILED;
    }

    private static String firstLine(String message) {
        String line = message.strip().lines().findFirst().orElse("");
        return line.length() <= MESSAGE_LIMIT ? line : line.substring(0, MESSAGE_LIMIT) + "...";
    }

    private static org.w3c.dom.Document parse(Path report) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            DocumentBuilder builder = factory.newDocumentBuilder();
            return builder.parse(report.toFile());
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalStateException("the test report " + report + " cannot be read: " + e.getMessage(), e);
        }
    }
}
