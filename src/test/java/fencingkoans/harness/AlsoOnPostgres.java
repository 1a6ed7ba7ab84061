package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a koan that holds on every destination: lesson 6 runs the very same method again on PostgreSQL, where it
 * has its own number and hints, and the learner makes it pass in SQL. What the koan teaches stays the same.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AlsoOnPostgres {

    /** Its number in lesson 6, for example "6.1". */
    String value();

    /** The file to edit when it runs on PostgreSQL. */
    String edit() default "apply_request.sql";

    /** At least two, in SQL terms: a nudge first, nearly the answer last. */
    String[] hints();
}
