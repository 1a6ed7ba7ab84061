package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What a {@code @Nested} group of koans is about. It is shown after the numbers of the koans the group holds,
 * "6.1 to 6.4: lesson 1 again, on PostgreSQL", which are derived like every koan number, so never written here.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface KoanGroup {

    String value();
}
