package io.timewheel.agent;

import org.junit.jupiter.api.Test;

import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BootDefinerTest {

    @Test
    void generatedDefiner_verifies_andCannotReachUnsafeWithoutTheExport() throws Exception {
        byte[] classFile = BootDefiner.classFile();
        Class<?> definer = new ClassLoader("isolated", null) {
            Class<?> define() {
                return defineClass("io.timewheel.agent.GeneratedBootDefiner", classFile, 0, classFile.length);
            }
        }.define();
        assertTrue(BiFunction.class.isAssignableFrom(definer));
        @SuppressWarnings("unchecked")
        BiFunction<String, byte[], Class<?>> function =
                (BiFunction<String, byte[], Class<?>>) definer.getConstructor().newInstance(); // links: verified
        // Without Instrumentation.redefineModule exporting jdk.internal.misc to its module, it is refused.
        assertThrows(IllegalAccessError.class, () -> function.apply("x.Y", new byte[0]));
    }
}
