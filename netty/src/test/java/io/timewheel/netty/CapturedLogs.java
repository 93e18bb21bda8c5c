package io.timewheel.netty;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Netty's logging, captured: a default InternalLoggerFactory whose loggers record every warn and error call
 * (logger name, message, throwable) and print nothing. Installed once, before any timer is created (TimerKind),
 * so that HashedWheelTimer's static logger is one of them too.
 */
final class CapturedLogs {

    /** One call to a logger's warn or error. */
    static final class Entry {
        final String logger;
        final String level;
        final String message;
        final Throwable thrown;

        Entry(String logger, String level, String message, Throwable thrown) {
            this.logger = logger;
            this.level = level;
            this.message = message;
            this.thrown = thrown;
        }

        @Override
        public String toString() {
            return level + " " + logger + ": " + message + (thrown == null ? "" : " (" + thrown + ")");
        }
    }

    private static final Queue<Entry> ENTRIES = new ConcurrentLinkedQueue<>();
    private static boolean installed;

    private CapturedLogs() {
    }

    static synchronized void install() {
        if (installed) {
            return;
        }
        installed = true;
        InternalLoggerFactory.setDefaultFactory(new InternalLoggerFactory() {
            @Override
            protected InternalLogger newInstance(String name) {
                return logger(name);
            }
        });
    }

    /** The entries whose throwable is {@code thrown}, in order. */
    static List<Entry> about(Throwable thrown) {
        List<Entry> found = new ArrayList<>();
        for (Entry e : ENTRIES) {
            if (e.thrown == thrown) {
                found.add(e);
            }
        }
        return found;
    }

    private static InternalLogger logger(String name) {
        return (InternalLogger) Proxy.newProxyInstance(InternalLogger.class.getClassLoader(), new Class<?>[] {InternalLogger.class},
                (proxy, method, args) -> {
                    String m = method.getName();
                    switch (m) {
                        case "name":
                            return name;
                        case "toString":
                            return "CapturedLogs(" + name + ")";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            break;
                    }
                    if (m.startsWith("is") && m.endsWith("Enabled")) {
                        return true;
                    }
                    if ((m.equals("warn") || m.equals("error")) && args != null && args.length > 0) {
                        Throwable thrown = null;
                        for (Object a : args) {
                            if (a instanceof Throwable) {
                                thrown = (Throwable) a;
                            }
                        }
                        ENTRIES.add(new Entry(name, m, String.valueOf(args[0]), thrown));
                    }
                    return null;
                });
    }
}
