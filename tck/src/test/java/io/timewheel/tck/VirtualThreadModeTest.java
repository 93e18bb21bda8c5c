package io.timewheel.tck;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The exclusion list of {@link VirtualThreadMode} names real differential tests, each with a reason. */
class VirtualThreadModeTest {

    @Test
    void everyExcludedTest_isADifferentialTestOfThisSuite_withAReason() throws Exception {
        assertFalse(VirtualThreadMode.EXCLUDED.isEmpty());
        for (Map.Entry<String, String> e : VirtualThreadMode.EXCLUDED.entrySet()) {
            String[] parts = e.getKey().split("#");
            Class<?> test = Class.forName("io.timewheel.tck." + parts[0]);
            assertTrue(TckTest.class.isAssignableFrom(test) || test.isAnnotationPresent(ExtendWith.class), e.getKey()
                    + " is seen by VirtualThreadMode");
            Method method = Arrays.stream(test.getDeclaredMethods()).filter(m -> m.getName().equals(parts[1]))
                    .findFirst().orElseThrow(() -> new AssertionError("no such test: " + e.getKey()));
            assertTrue(Arrays.asList(method.getParameterTypes()).contains(Impl.class), e.getKey() + " takes an Impl");
            assertTrue(e.getValue().matches("(thread identity|pool size|thread-factory use|the constructors' check order): .+"),
                    e.getKey() + ": " + e.getValue());
        }
    }
}
