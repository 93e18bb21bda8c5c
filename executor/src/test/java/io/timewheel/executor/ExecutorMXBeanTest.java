package io.timewheel.executor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The opt-in MXBean: registered under a name that tells executors apart, readable, gone at termination. */
@ExtendWith(UnexpectedReports.class)
class ExecutorMXBeanTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private static Set<ObjectName> named(String name) throws Exception {
        return SERVER.queryNames(new ObjectName("io.timewheel:type=WheelScheduledExecutorService,name="
                + ObjectName.quote(name) + ",*"), null);
    }

    @Test
    void jmx_registersOneMXBeanPerExecutor_distinctForEqualNames_andUnregistersAtTermination() throws Exception {
        WheelScheduledExecutorService a = WheelScheduledExecutorService.builder().name("jmx-test").jmx(true).build();
        WheelScheduledExecutorService b = WheelScheduledExecutorService.builder().name("jmx-test").jmx(true).build();
        WheelScheduledExecutorService quiet = WheelScheduledExecutorService.builder().name("jmx-off").build();
        try {
            Set<ObjectName> names = named("jmx-test");
            assertEquals(2, names.size(), names.toString());
            assertEquals(Set.of(), named("jmx-off"), "not opted in: no MXBean");

            CountDownLatch ran = new CountDownLatch(1);
            a.execute(ran::countDown);
            assertTrue(ran.await(10, SECONDS));
            ObjectName first = new ObjectName("io.timewheel:type=WheelScheduledExecutorService,name=" + ObjectName.quote("jmx-test"));
            WheelExecutorMXBean bean = JMX.newMXBeanProxy(SERVER, first, WheelExecutorMXBean.class);
            assertEquals("jmx-test", bean.getName());
            assertEquals(1, bean.getWorkers());
            assertEquals(64, bean.getLatenessHistogram().length);
            assertEquals(100_000_000L, bean.getLateThresholdNanos());
            org.awaitility.Awaitility.await().until(() -> bean.getTasksRun() == 1);
            for (ObjectName other : names) {
                if (!other.equals(first)) {
                    assertNotEquals(null, other.getKeyProperty("id"), other.toString());
                }
            }
        } finally {
            for (WheelScheduledExecutorService e : new WheelScheduledExecutorService[] {a, b, quiet}) {
                e.shutdown();
                assertTrue(e.awaitTermination(10, SECONDS));
            }
        }
        assertEquals(Set.of(), named("jmx-test"), "unregistered at termination");
    }
}
