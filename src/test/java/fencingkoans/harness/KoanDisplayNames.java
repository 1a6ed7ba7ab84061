package fencingkoans.harness;

import java.lang.reflect.Method;
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

    @Override
    public String generateDisplayNameForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> nestedClass) {
        return nestedClass.getSimpleName();
    }

    @Override
    public String generateDisplayNameForMethod(List<Class<?>> enclosingInstanceTypes, Class<?> testClass,
            Method testMethod) {
        String sentence = sentence(testMethod.getName());
        return KoanCard.of(testClass, testMethod).map(card -> card.number() + " " + sentence).orElse(sentence);
    }

    /** "aWorkerIsRejected" becomes "a worker is rejected". */
    static String sentence(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1 $2").replaceAll("([A-Z])([A-Z][a-z])", "$1 $2")
                .toLowerCase(java.util.Locale.ROOT);
    }
}
