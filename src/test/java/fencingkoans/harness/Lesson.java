package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a koan class as one lesson of the course; every lesson runs in focus (see {@link KoanFocus}), on the
 * koans' own thread with a time limit (see {@link KoanThread}), and tells a stub which koan runs (see
 * {@link RunningKoan}).
 */
@ExtendWith({KoanFocus.class, KoanThread.class, RunningKoan.class})
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Lesson {

    int value();

    String title();

    /** The lesson page, relative to the project root. */
    String page();
}
