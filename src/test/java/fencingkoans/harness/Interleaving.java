package fencingkoans.harness;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a lesson or a koan in which two connections or threads act at the same time (one inside a transaction
 * while another tries to read, write or lock). The course check repeats these koans to prove they never flake.
 */
@Tag(Interleaving.TAG)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface Interleaving {

    String TAG = "interleaving";
}
