package fencingkoans.harness;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Names every lesson and koan from its annotations and method name, so that the number shown in the IDE, the
 * report and the grade is the one written on the koan: "1.2 a worker whose generation was replaced is rejected".
 */
public final class KoanDisplayNames implements DisplayNameGenerator {

    private static final Pattern WRITTEN_WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’-][\\p{L}\\p{N}]+)*");
    private static final Pattern JOINING_MARK = Pattern.compile("['’-]");
    private static final Pattern WORD_START = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern WORD_START_AFTER_CAPITALS = Pattern.compile("([A-Z])([A-Z][a-z])");

    @Override
    public String generateDisplayNameForClass(Class<?> testClass) {
        Lesson lesson = testClass.getAnnotation(Lesson.class);
        return lesson == null ? testClass.getSimpleName() : "Lesson " + lesson.value() + ": " + lesson.title();
    }

    /** "6.1 to 6.4: lesson 1 again, on PostgreSQL" for a {@link KoanGroup}: the numbers of the koans it holds. */
    @Override
    public String generateDisplayNameForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> nestedClass) {
        KoanGroup group = nestedClass.getAnnotation(KoanGroup.class);
        if (group == null) {
            return nestedClass.getSimpleName();
        }
        List<String> numbers = Course.lesson(nestedClass).koans().stream()
                .filter(koan -> koan.testClass().getName().equals(nestedClass.getName()))
                .map(koan -> koan.card().number()).toList();
        return numbers.isEmpty() ? group.value() : ranges(numbers) + ": " + group.value();
    }

    @Override
    public String generateDisplayNameForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass,
            Method testMethod) {
        return Course.card(testClass, testMethod)
                .map(card -> card.number() + " " + name(testMethod.getName(), card.teaches()))
                .orElseGet(() -> sentence(testMethod.getName()));
    }

    /** "6.1 to 6.4", and koans written apart apart: "6.5 to 6.12 and 6.27". */
    static String ranges(List<String> numbers) {
        List<String> runs = new ArrayList<>();
        int first = 0;
        for (int next = 1; next <= numbers.size(); next++) {
            if (next == numbers.size()
                    || KoanOrder.index(numbers.get(next)) != KoanOrder.index(numbers.get(next - 1)) + 1) {
                runs.add(next - 1 == first ? numbers.get(first) : numbers.get(first) + " to " + numbers.get(next - 1));
                first = next;
            }
        }
        return inWords(runs);
    }

    /** "A, B and C". */
    static String inWords(List<String> items) {
        return items.size() == 1 ? items.get(0)
                : String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /**
     * The koan's name in written English: the method's words, each spelled as the koan's own {@code teaches}
     * sentence spells it. A method name cannot hold an apostrophe, a hyphen or a capital of its own, so
     * "theFirstHoldersApplyIsStale" taught as "... the first holder's next apply ..." reads "the first holder's apply
     * is stale", and "installingOnFundA" beside "fund-A" reads "installing on fund-A".
     */
    static String name(String methodName, String teaches) {
        Map<String, String> written = writtenForms(teaches);
        List<String> words = List.of(sentence(methodName).split(" "));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String pair = i + 1 < words.size() ? written.get(words.get(i) + words.get(i + 1)) : null;
            if (pair != null) {
                out.add(pair);
                i++;
            } else {
                out.add(written.getOrDefault(words.get(i), words.get(i)));
            }
        }
        return String.join(" ", out);
    }

    /**
     * The words of {@code teaches} that a method name would lose something of, keyed by what is left of them:
     * "holder's" under "holders", "fund-A" under "funda", "SQL" under "sql". A capital on a word's first letter
     * alone is left out: it starts a sentence, or names a result ("Contended"), and the name reads on in lower case.
     */
    private static Map<String, String> writtenForms(String teaches) {
        Map<String, String> forms = new HashMap<>();
        Matcher word = WRITTEN_WORD.matcher(teaches);
        while (word.find()) {
            String form = word.group();
            String rest = form.substring(1);
            if (JOINING_MARK.matcher(form).find() || !rest.equals(rest.toLowerCase(Locale.ROOT))) {
                forms.putIfAbsent(JOINING_MARK.matcher(form).replaceAll("").toLowerCase(Locale.ROOT), form);
            }
        }
        return forms;
    }

    /** "aWorkerIsRejected" becomes "a worker is rejected". */
    static String sentence(String camelCase) {
        String words = WORD_START.matcher(camelCase).replaceAll("$1 $2");
        return WORD_START_AFTER_CAPITALS.matcher(words).replaceAll("$1 $2").toLowerCase(Locale.ROOT);
    }
}
