package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;

/**
 * A koan of lesson 6 that runs an earlier lesson's koan again on PostgreSQL: the method overrides that koan and
 * calls its body, so what it teaches stays the same, while the file to edit and the hints speak SQL. Its number is
 * its place in lesson 6, like any other koan's.
 */
@Test
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AgainOnPostgres {

    /** The file to edit on PostgreSQL. */
    String edit() default "apply_request.sql";

    /** At least two, in SQL terms: a nudge first, nearly the answer last. */
    String[] hints();
}
