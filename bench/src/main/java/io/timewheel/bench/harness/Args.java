package io.timewheel.bench.harness;

import java.util.HashMap;
import java.util.Map;

/** {@code --key value} and {@code --flag} arguments of the harness mains. */
public final class Args {

    private final Map<String, String> values = new HashMap<>();

    public Args(String... args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("expected --key [value], got '" + a + "'");
            }
            String key = a.substring(2);
            int eq = key.indexOf('=');
            if (eq >= 0) {
                values.put(key.substring(0, eq), key.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                values.put(key, args[++i]);
            } else {
                values.put(key, "true");
            }
        }
    }

    public String get(String key, String fallback) {
        return values.getOrDefault(key, fallback);
    }

    public int getInt(String key, int fallback) {
        String v = values.get(key);
        return v == null ? fallback : Integer.parseInt(v.replace("_", ""));
    }

    public boolean flag(String key) {
        return Boolean.parseBoolean(values.getOrDefault(key, "false"));
    }
}
