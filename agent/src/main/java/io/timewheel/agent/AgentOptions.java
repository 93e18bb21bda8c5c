package io.timewheel.agent;

import io.timewheel.wheel.TimerWheel;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The agent's settings, resolved once at start-up from three sources. Immutable once built.
 *
 * <p>Precedence, per key: agent arguments ({@code -javaagent:timewheel-agent.jar=key=value,...}) over
 * system properties ({@code -Dtimewheel.agent.key=value}) over environment variables
 * ({@code TIMEWHEEL_AGENT_KEY=value}) over the defaults. Key names ignore case, {@code _}, {@code -}
 * and {@code .}, so {@code jdkInternal}, {@code jdk-internal} and {@code JDK_INTERNAL} are one key.
 * Within the agent arguments the last occurrence of a key wins.
 *
 * <p>Start-up path: no lambdas or streams here (see the agent pom on start-up cost).
 *
 * <p>Nothing here fails: an unknown key or a value that does not parse is ignored (the next source
 * down, or the default, applies) and described in {@link #problems()} for the start-up line.
 */
final class AgentOptions {

    static final String PROPERTY_PREFIX = "timewheel.agent.";
    static final String ENV_PREFIX = "TIMEWHEEL_AGENT_";
    /** The executor's own property for the tick size, set when {@code tickNanos} is given. */
    static final String TICK_PROPERTY = "timewheel.tickNanos";
    /** The executor's own properties for its observability options, set when the agent's options turn them on. */
    static final String STARVATION_WARNING_PROPERTY = "timewheel.starvationWarning";
    static final String JMX_PROPERTY = "timewheel.jmx";
    static final String LATE_THRESHOLD_PROPERTY = "timewheel.lateThresholdMillis";

    /** Canonical key names, in the order the README lists them. */
    private static final List<String> KEYS = List.of("enabled", "factories", "constructors", "subclasses",
            "jdkInternal", "nettyTimers", "include", "exclude", "tickNanos", "starvationWarning", "jmx",
            "lateThresholdMillis", "debug");

    final boolean enabled;
    final boolean factories;
    final boolean constructors;
    final boolean subclasses;
    final boolean jdkInternal;
    /** Whether io.netty.util.HashedWheelTimer is rewritten to delegate to a timer on the shared tick thread. */
    final boolean nettyTimers;
    /** Class-name prefixes in internal form ({@code com/example/}); empty means every class. */
    final List<String> include;
    /** Class-name prefixes in internal form; these classes are never transformed. */
    final List<String> exclude;
    /**
     * Tick size to hand to the executor (a power of two up to {@link TimerWheel#MAX_TICK_NANOS}, as the wheel
     * requires), or null to leave it to the executor's default.
     */
    final Long tickNanos;
    /** Whether the executors the agent creates watch for starvation (the executor's starvationWarning). */
    final boolean starvationWarning;
    /** Whether the executors the agent creates register their MXBean (the executor's jmx). */
    final boolean jmx;
    /** The executors' late threshold in milliseconds, or null for the executor's default (100 ms). */
    final Long lateThresholdMillis;
    final boolean debug;
    private final List<String> problems;
    private final Map<String, String> origins;

    private AgentOptions(Resolver r) {
        enabled = r.bool("enabled", true);
        factories = r.bool("factories", true);
        constructors = r.bool("constructors", true);
        subclasses = r.bool("subclasses", true);
        jdkInternal = r.bool("jdkInternal", false);
        nettyTimers = r.bool("nettyTimers", false);
        include = r.prefixes("include");
        exclude = r.prefixes("exclude");
        tickNanos = r.tickNanos("tickNanos");
        starvationWarning = r.bool("starvationWarning", false);
        jmx = r.bool("jmx", false);
        lateThresholdMillis = r.positiveLong("lateThresholdMillis", "milliseconds");
        debug = r.bool("debug", false);
        problems = List.copyOf(r.problems);
        origins = Map.copyOf(r.origins);
    }

    /** Resolves the options of this JVM. */
    static AgentOptions resolve(String agentArguments, Properties systemProperties, Map<String, String> environment) {
        Resolver resolver = new Resolver();
        resolver.readAgentArguments(agentArguments);
        for (String name : systemProperties.stringPropertyNames()) {
            if (name.startsWith(PROPERTY_PREFIX)) {
                resolver.offer("system property " + name, name.substring(PROPERTY_PREFIX.length()),
                        systemProperties.getProperty(name), 1);
            }
        }
        for (Map.Entry<String, String> variable : environment.entrySet()) {
            if (variable.getKey().startsWith(ENV_PREFIX)) {
                resolver.offer("environment " + variable.getKey(), variable.getKey().substring(ENV_PREFIX.length()),
                        variable.getValue(), 2);
            }
        }
        return new AgentOptions(resolver);
    }

    /** What was ignored, one short phrase each; empty when all is well. */
    List<String> problems() {
        return problems;
    }

    /** Where each key that was set came from, for the debug output. */
    Map<String, String> origins() {
        return origins;
    }

    @Override
    public String toString() {
        return "enabled=" + enabled + ", factories=" + factories + ", constructors=" + constructors
                + ", subclasses=" + subclasses + ", jdkInternal=" + jdkInternal + ", nettyTimers=" + nettyTimers + ", include=" + dotted(include)
                + ", exclude=" + dotted(exclude) + ", tickNanos=" + tickNanos + ", starvationWarning=" + starvationWarning
                + ", jmx=" + jmx + ", lateThresholdMillis=" + lateThresholdMillis + ", debug=" + debug;
    }

    static List<String> dotted(List<String> internalPrefixes) {
        List<String> dotted = new ArrayList<>(internalPrefixes.size());
        for (String prefix : internalPrefixes) {
            dotted.add(prefix.replace('/', '.'));
        }
        return dotted;
    }

    private static String normalise(String key) {
        StringBuilder b = new StringBuilder(key.length());
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c != '_' && c != '-' && c != '.' && !Character.isWhitespace(c)) {
                b.append(Character.toLowerCase(c));
            }
        }
        return b.toString();
    }

    /** Collects the candidate values of every key by source rank, then parses them in order. */
    private static final class Resolver {
        private static final Map<String, String> CANONICAL = new LinkedHashMap<>();

        static {
            for (String key : KEYS) {
                CANONICAL.put(normalise(key), key);
            }
        }

        /** key -> candidate values, index = source rank (0 agent args, 1 system property, 2 env). */
        private final Map<String, Candidate[]> candidates = new LinkedHashMap<>();
        final List<String> problems = new ArrayList<>();
        final Map<String, String> origins = new LinkedHashMap<>();

        private record Candidate(String origin, String raw) {
        }

        void readAgentArguments(String arguments) {
            if (arguments == null || arguments.isBlank()) {
                return;
            }
            for (String item : arguments.split(",")) {
                String entry = item.trim();
                if (entry.isEmpty()) {
                    continue;
                }
                int eq = entry.indexOf('=');
                String key = eq < 0 ? entry : entry.substring(0, eq).trim();
                String value = eq < 0 ? null : entry.substring(eq + 1).trim();
                offer("agent argument", key, value, 0);
            }
        }

        void offer(String origin, String key, String value, int rank) {
            String canonical = CANONICAL.get(normalise(key));
            if (canonical == null) {
                problems.add("'" + key + "' (" + origin + ") is not an option");
                return;
            }
            Candidate[] ranked = candidates.get(canonical);
            if (ranked == null) {
                ranked = new Candidate[3];
                candidates.put(canonical, ranked);
            }
            ranked[rank] = new Candidate(origin, value);
        }

        boolean bool(String key, boolean fallback) {
            for (Candidate c : candidatesOf(key)) {
                String raw = c.raw() == null ? "true" : c.raw().trim().toLowerCase(Locale.ROOT); // bare key = on
                switch (raw) {
                    case "true", "yes", "on", "1" -> {
                        origins.put(key, c.origin());
                        return true;
                    }
                    case "false", "no", "off", "0" -> {
                        origins.put(key, c.origin());
                        return false;
                    }
                    default -> problems.add(key + "=" + c.raw() + " (" + c.origin() + ") is not true/false");
                }
            }
            return fallback;
        }

        List<String> prefixes(String key) {
            for (Candidate c : candidatesOf(key)) {
                if (c.raw() == null) {
                    problems.add(key + " (" + c.origin() + ") needs a value: class-name prefixes separated by ; or |");
                    continue;
                }
                List<String> prefixes = new ArrayList<>();
                for (String prefix : c.raw().split("[;|]")) {
                    String p = prefix.trim();
                    if (!p.isEmpty()) {
                        prefixes.add(p.replace('.', '/'));
                    }
                }
                origins.put(key, c.origin());
                return List.copyOf(prefixes);
            }
            return List.of();
        }

        Long positiveLong(String key, String unit) {
            for (Candidate c : candidatesOf(key)) {
                try {
                    long value = Long.parseLong(c.raw() == null ? "" : c.raw().trim());
                    if (value > 0) {
                        origins.put(key, c.origin());
                        return value;
                    }
                } catch (NumberFormatException notANumber) {
                    // reported below
                }
                problems.add(key + "=" + c.raw() + " (" + c.origin() + ") is not a positive number of " + unit);
            }
            return null;
        }

        /**
         * A wheel tick: a power of two from 1 to 2^36 nanoseconds. The bound is read from TimerWheel's constant,
         * which javac inlines, so no executor class is loaded here.
         */
        Long tickNanos(String key) {
            for (Candidate c : candidatesOf(key)) {
                try {
                    long value = Long.parseLong(c.raw() == null ? "" : c.raw().trim());
                    if (value > 0 && value <= TimerWheel.MAX_TICK_NANOS && Long.bitCount(value) == 1) {
                        origins.put(key, c.origin());
                        return value;
                    }
                } catch (NumberFormatException notANumber) {
                    // reported below
                }
                problems.add(key + "=" + c.raw() + " (" + c.origin() + ") is not a power of two from 1 to 2^"
                        + Long.numberOfTrailingZeros(TimerWheel.MAX_TICK_NANOS) + " nanoseconds");
            }
            return null;
        }

        private List<Candidate> candidatesOf(String key) {
            Candidate[] ranked = candidates.get(key);
            List<Candidate> present = new ArrayList<>(3);
            if (ranked != null) {
                for (Candidate c : ranked) {
                    if (c != null) {
                        present.add(c);
                    }
                }
            }
            return present;
        }
    }
}
