package io.timewheel.agent;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentOptionsTest {

    private static Properties properties(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void nothingGiven_defaults() {
        AgentOptions o = AgentOptions.resolve(null, new Properties(), Map.of());
        assertTrue(o.enabled);
        assertTrue(o.factories);
        assertTrue(o.constructors);
        assertTrue(o.subclasses);
        assertFalse(o.jdkInternal);
        assertFalse(o.nettyTimers);
        assertFalse(o.debug);
        assertEquals(List.of(), o.include);
        assertEquals(List.of(), o.exclude);
        assertNull(o.tickNanos);
        assertEquals(List.of(), o.problems());
    }

    @Test
    void agentArguments_beatSystemProperties_beatEnvironment() {
        AgentOptions o = AgentOptions.resolve("factories=false",
                properties("timewheel.agent.factories", "true", "timewheel.agent.constructors", "false",
                        "unrelated.property", "x"),
                Map.of("TIMEWHEEL_AGENT_FACTORIES", "true", "TIMEWHEEL_AGENT_CONSTRUCTORS", "true",
                        "TIMEWHEEL_AGENT_SUBCLASSES", "false", "PATH", "/bin"));
        assertFalse(o.factories, "agent argument over property and environment");
        assertFalse(o.constructors, "property over environment");
        assertFalse(o.subclasses, "environment over default");
        assertEquals("agent argument", o.origins().get("factories"));
        assertEquals("system property timewheel.agent.constructors", o.origins().get("constructors"));
        assertEquals("environment TIMEWHEEL_AGENT_SUBCLASSES", o.origins().get("subclasses"));
        assertEquals(List.of(), o.problems());
    }

    @Test
    void keyNames_ignoreCaseAndSeparators() {
        assertTrue(AgentOptions.resolve("jdk-internal=true", new Properties(), Map.of()).jdkInternal);
        assertTrue(AgentOptions.resolve("JDKINTERNAL=on", new Properties(), Map.of()).jdkInternal);
        assertTrue(AgentOptions.resolve(null, properties("timewheel.agent.jdk_internal", "yes"), Map.of()).jdkInternal);
        assertTrue(AgentOptions.resolve(null, new Properties(), Map.of("TIMEWHEEL_AGENT_JDK_INTERNAL", "1")).jdkInternal);
        assertEquals(256L, AgentOptions.resolve(null, new Properties(), Map.of("TIMEWHEEL_AGENT_TICK_NANOS", "256")).tickNanos);
    }

    @Test
    void nettyTimers_isReadFromEachSource_underTheAgentsPrefixes() {
        assertTrue(AgentOptions.resolve("nettyTimers", new Properties(), Map.of()).nettyTimers);
        assertTrue(AgentOptions.resolve(null, properties("timewheel.agent.nettyTimers", "true"), Map.of()).nettyTimers);
        AgentOptions environment = AgentOptions.resolve(null, new Properties(), Map.of("TIMEWHEEL_AGENT_NETTY_TIMERS", "on"));
        assertTrue(environment.nettyTimers);
        assertEquals("environment TIMEWHEEL_AGENT_NETTY_TIMERS", environment.origins().get("nettyTimers"));
        AgentOptions malformed = AgentOptions.resolve("netty-timers=sometimes", new Properties(),
                Map.of("TIMEWHEEL_AGENT_NETTYTIMERS", "yes"));
        assertTrue(malformed.nettyTimers, "the environment applies once the argument is thrown out");
        assertEquals(List.of("nettyTimers=sometimes (agent argument) is not true/false"), malformed.problems());
    }

    @Test
    void bareKey_meansTrue_andTheLastOccurrenceWins() {
        AgentOptions o = AgentOptions.resolve(" debug , jdkInternal=true,,jdkInternal=false ", new Properties(), Map.of());
        assertTrue(o.debug);
        assertFalse(o.jdkInternal);
        assertEquals(List.of(), o.problems());
    }

    @Test
    void prefixLists_splitOnSemicolonOrBar_inInternalForm() {
        AgentOptions o = AgentOptions.resolve("include=com.app. ; org.lib|net.x.Y$1,exclude=", new Properties(), Map.of());
        assertEquals(List.of("com/app/", "org/lib", "net/x/Y$1"), o.include);
        assertEquals(List.of(), o.exclude);
        assertEquals(List.of("com.app.", "org.lib", "net.x.Y$1"), AgentOptions.dotted(o.include));
    }

    @Test
    void malformedValue_isIgnoredInFavourOfTheNextSource_andReported() {
        AgentOptions o = AgentOptions.resolve("enabled=maybe,tickNanos=-5,exclude",
                properties("timewheel.agent.enabled", "false"), Map.of("TIMEWHEEL_AGENT_EXCLUDE", "com.old."));
        assertFalse(o.enabled, "the property applies once the argument is thrown out");
        assertNull(o.tickNanos);
        assertEquals(List.of("com/old/"), o.exclude);
        assertEquals(3, o.problems().size(), o.problems().toString());
        assertTrue(o.problems().get(0).contains("enabled=maybe"), o.problems().toString());
    }

    @Test
    void unknownKeys_areReported_fromEverySource_andTheRestApplies() {
        AgentOptions o = AgentOptions.resolve("bogus=1,constructors=false",
                properties("timewheel.agent.nope", "x"), Map.of("TIMEWHEEL_AGENT_WHAT", "y"));
        assertFalse(o.constructors);
        assertEquals(3, o.problems().size(), o.problems().toString());
        assertTrue(o.problems().get(0).startsWith("'bogus' (agent argument)"), o.problems().toString());
    }

    @Test
    void observabilityOptions_areOffByDefault_andParse() {
        AgentOptions defaults = AgentOptions.resolve(null, new Properties(), Map.of());
        assertFalse(defaults.starvationWarning);
        assertFalse(defaults.jmx);
        assertNull(defaults.lateThresholdMillis);
        AgentOptions on = AgentOptions.resolve("starvation-warning,jmx=yes,lateThresholdMillis=250", new Properties(),
                Map.of());
        assertTrue(on.starvationWarning);
        assertTrue(on.jmx);
        assertEquals(250L, on.lateThresholdMillis);
        AgentOptions bad = AgentOptions.resolve("lateThresholdMillis=0", new Properties(),
                Map.of("TIMEWHEEL_AGENT_JMX", "true"));
        assertNull(bad.lateThresholdMillis);
        assertTrue(bad.jmx);
        assertTrue(bad.problems().get(0).contains("not a positive number of milliseconds"), bad.problems().toString());
    }

    @Test
    void tickNanos_mustBeAPositiveInteger() {
        assertEquals(1_048_576L, AgentOptions.resolve("tickNanos=1048576", new Properties(), Map.of()).tickNanos);
        assertNull(AgentOptions.resolve("tickNanos=0", new Properties(), Map.of()).tickNanos);
        assertNull(AgentOptions.resolve("tickNanos=1ms", new Properties(), Map.of()).tickNanos);
    }

    /** The wheel takes only a power of two up to 2^36 ns; anything else is named and ignored, not passed on. */
    @Test
    void tickNanos_notAPowerOfTwo_isNamedAndIgnored() {
        AgentOptions three = AgentOptions.resolve("tickNanos=3", new Properties(), Map.of());
        assertNull(three.tickNanos);
        assertEquals(List.of("tickNanos=3 (agent argument) is not a power of two from 1 to 2^36 nanoseconds"),
                three.problems());
        AgentOptions tooLarge = AgentOptions.resolve("tickNanos=137438953472", new Properties(), // 2^37
                Map.of("TIMEWHEEL_AGENT_TICK_NANOS", "65536"));
        assertEquals(65_536L, tooLarge.tickNanos, "the next source applies once the argument is thrown out");
        assertEquals(1, tooLarge.problems().size(), tooLarge.problems().toString());
        assertEquals(1L, AgentOptions.resolve("tickNanos=1", new Properties(), Map.of()).tickNanos);
        assertEquals(1L << 36, AgentOptions.resolve("tickNanos=68719476736", new Properties(), Map.of()).tickNanos);
    }
}
