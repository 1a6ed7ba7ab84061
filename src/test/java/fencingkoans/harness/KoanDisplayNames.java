package fencingkoans.harness;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Names every lesson and koan from its annotations and method name, so that the number shown in the IDE, the
 * report and the grade is the one written on the koan: "1.2 a worker whose generation was replaced is rejected".
 */
public final class KoanDisplayNames implements DisplayNameGenerator {

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
        String sentence = sentence(testMethod.getName());
        return Course.card(testClass, testMethod).map(card -> card.number() + " " + sentence).orElse(sentence);
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

    /** "aWorkerIsRejected" becomes "a worker is rejected". */
    static String sentence(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1 $2").replaceAll("([A-Z])([A-Z][a-z])", "$1 $2")
                .toLowerCase(java.util.Locale.ROOT);
    }
}
