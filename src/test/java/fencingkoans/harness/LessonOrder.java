package fencingkoans.harness;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/** Runs the lessons in course order, whatever order the build tool found the classes in. */
public final class LessonOrder implements ClassOrderer {

    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(Comparator.comparingInt(
                (ClassDescriptor lesson) -> lesson.findAnnotation(Lesson.class).map(Lesson::value)
                        .orElse(Integer.MAX_VALUE)));
    }
}
