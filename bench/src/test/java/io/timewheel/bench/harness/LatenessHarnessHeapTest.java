package io.timewheel.bench.harness;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The lateness harness keeps the heap from shrinking for its measured rounds and puts the JVM's setting back
 * after (LatenessHarness: the System.gc() before each round otherwise shrank G1's heap to its minimum, and young
 * pauses fell in every round).
 */
class LatenessHarnessHeapTest {

    private static String maxHeapFreeRatio() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("MaxHeapFreeRatio").getValue();
    }

    @Test
    void keepHeap_stopsShrinking_andRestoreHeap_putsTheSettingBack() {
        String original = maxHeapFreeRatio();
        String before = LatenessHarness.keepHeap();
        try {
            assertNotNull(before, "this JVM has the flag: keepHeap must have set it");
            assertEquals(original, before);
            assertEquals("100", maxHeapFreeRatio());
        } finally {
            LatenessHarness.restoreHeap(before);
        }
        assertEquals(original, maxHeapFreeRatio());
    }
}
