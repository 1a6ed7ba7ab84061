package fencingkoans.harness;

import java.util.Comparator;
import org.junit.jupiter.api.MethodDescriptor;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;

/** Runs a lesson's koans in course order: 2.9 before 2.10, and a koan lesson 6 runs again under its number there. */
public final class KoanOrder implements MethodOrderer {

    @Override
    public void orderMethods(MethodOrdererContext context) {
        Class<?> testClass = context.getTestClass();
        context.getMethodDescriptors().sort(Comparator.comparingInt((MethodDescriptor method) ->
                Course.card(testClass, method.getMethod()).map(card -> index(card.number())).orElse(Integer.MAX_VALUE)));
    }

    /** "2.10" becomes 2010, so that numeric order is course order. */
    static int index(String koanNumber) {
        String[] parts = koanNumber.split("\\.");
        return Integer.parseInt(parts[0]) * 1000 + Integer.parseInt(parts[1]);
    }
}
