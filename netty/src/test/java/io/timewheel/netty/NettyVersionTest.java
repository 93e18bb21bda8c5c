package io.timewheel.netty;

import io.netty.util.Version;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The build runs these tests twice, on Netty 4.1 and on 4.2 (netty/pom.xml): each run checks that it has the
 * netty-common it was meant to have, so that a build that quietly ran both on one line fails.
 */
class NettyVersionTest {

    @Test
    void runsOnTheNettyLineTheBuildAskedFor() {
        String expected = System.getProperty("timewheel.netty.expected");
        assertNotNull(expected, "the build sets timewheel.netty.expected");
        Version common = Version.identify(NettyVersionTest.class.getClassLoader()).get("netty-common");
        assertNotNull(common, "netty-common's version resource");
        assertTrue(common.artifactVersion().startsWith(expected + "."), common.artifactVersion());
        assertEquals(expected.equals("4.2"), TimerContractTest.hasCancelledCallback(), "TimerTask.cancelled exists from 4.2 on");
    }
}
