package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class of lesson 6 whose koans run against the PostgreSQL destination. A koan it inherits from an
 * earlier lesson is shown, ordered and graded under its {@link AlsoOnPostgres} number.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface OnPostgres {
}
