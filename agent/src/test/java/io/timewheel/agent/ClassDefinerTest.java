package io.timewheel.agent;

import org.junit.jupiter.api.Test;

import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassDefinerTest {

    @Test
    void generatedDefiner_verifies_andCannotReachUnsafeWithoutTheExport() throws Exception {
        byte[] classFile = ClassDefiner.classFile();
        Class<?> definer = new ClassLoader("isolated", null) {
            Class<?> define() {
                return defineClass("io.timewheel.agent.GeneratedClassDefiner", classFile, 0, classFile.length);
            }
        }.define();
        assertTrue(Function.class.isAssignableFrom(definer));
        @SuppressWarnings("unchecked")
        Function<Object[], Object> function = (Function<Object[], Object>) definer.getConstructor().newInstance(); // links: verified
        // Without Instrumentation.redefineModule exporting jdk.internal.misc to its module, it is refused.
        assertThrows(IllegalAccessError.class, () -> function.apply(new Object[]{"x.Y", new byte[0], null, null}));
    }
}
