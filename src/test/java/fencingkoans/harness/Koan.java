package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;

/**
 * One koan: the idea it proves, the method the learner edits to make it pass, and hints from a nudge to nearly
 * the answer. The single source of truth for everything shown about the koan. Its number is not written here:
 * it is the lesson's number and the koan's place in its lesson's file (see {@link Course}).
 */
@Test
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Koan {

    /** The idea in one sentence. */
    String teaches();

    /** The method to edit, as {@code Class.method}, in {@code exercises/}. */
    String edit();

    /** At least two, in order: a nudge first, nearly the answer last. */
    String[] hints();
}
