package sampleapp.netty;

import org.asynchttpclient.AsyncCompletionHandlerBase;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code IdleTimersApp ahc}: 20 AsyncHttpClient clients, each with a 300 ms request timeout and its own
 * periodic tasks set off (the idle-connection sweep moved to 10 minutes, no cookie store), each sending
 * requests to a local server that accepts and never answers, so that every request times out.
 *
 * <p>Two rounds of one request per client, all 20 started at once: the first in a cold JVM (its figures
 * are printed as {@code cold.*}: the JVM's first timeout of all waits for AsyncHttpClient's and Netty's
 * first-use class loading on the way to the handler, with or without the agent), the second measured.
 * Lateness, per request: from the request's start plus 300 ms (the start is read just before
 * {@code execute}, which schedules the request's timeout on the client's timer before it connects) to the
 * TimeoutException's arrival in the request's handler ({@code onThrowable}, called on the thread that ran
 * the timeout). Beside it, {@code stall.max}: how late a plain thread woke, at worst, during the same round.
 */
final class AhcTimeouts {

    static final int CLIENTS = 20;
    private static final long REQUEST_TIMEOUT_MILLIS = 300;

    private AhcTimeouts() {
    }

    /** Runs both rounds and prints them; returns when the last timeout's handler ran (System.nanoTime). */
    static long run() throws Exception {
        ServerSocket server = new ServerSocket(0, CLIENTS * 4, InetAddress.getLoopbackAddress());
        List<Socket> accepted = new ArrayList<>();
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    accepted.add(server.accept()); // held open, never read, never answered
                }
            } catch (IOException closed) {
                // the JVM is ending
            }
        }, "silent-server");
        acceptor.setDaemon(true);
        acceptor.start();
        String url = "http://127.0.0.1:" + server.getLocalPort() + "/";

        List<AsyncHttpClient> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            clients.add(Dsl.asyncHttpClient(Dsl.config()
                    .setRequestTimeout(Duration.ofMillis(REQUEST_TIMEOUT_MILLIS))
                    .setConnectionPoolCleanerPeriod(Duration.ofMinutes(10))
                    .setPooledConnectionIdleTimeout(Duration.ofMinutes(10)) // the sweep runs at the lesser of the two
                    .setCookieStore(null)));
        }
        round("cold.", clients, url);
        return round("", clients, url);
    }

    private static long round(String prefix, List<AsyncHttpClient> clients, String url) throws InterruptedException {
        StallProbe probe = new StallProbe();
        probe.start();
        CountDownLatch done = new CountDownLatch(CLIENTS);
        long[] started = new long[CLIENTS];
        long[] arrived = new long[CLIENTS];
        Throwable[] causes = new Throwable[CLIENTS];
        for (int i = 0; i < CLIENTS; i++) {
            int client = i;
            started[client] = System.nanoTime();
            clients.get(client).prepareGet(url).execute(new AsyncCompletionHandlerBase() {
                @Override
                public void onThrowable(Throwable t) {
                    arrived[client] = System.nanoTime();
                    causes[client] = t;
                    done.countDown();
                }
            });
        }
        if (!done.await(30, TimeUnit.SECONDS)) {
            print(prefix + "failure", (CLIENTS - done.getCount()) + " of " + CLIENTS + " requests ended");
        }
        print(prefix + "stall.max", String.format(Locale.ROOT, "%.2f", probe.finish() / 1e6));
        int timeouts = 0;
        double[] lateness = new double[CLIENTS];
        long last = 0;
        StringBuilder each = new StringBuilder();
        for (int i = 0; i < CLIENTS; i++) {
            if (causes[i] instanceof TimeoutException) {
                timeouts++;
            } else {
                print(prefix + "cause." + i, causes[i]);
            }
            lateness[i] = (arrived[i] - started[i] - TimeUnit.MILLISECONDS.toNanos(REQUEST_TIMEOUT_MILLIS)) / 1e6;
            each.append(i == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", lateness[i]));
            last = Math.max(last, arrived[i]);
        }
        print(prefix + "timeouts", timeouts);
        print(prefix + "lateness.ms", each);
        double[] sorted = lateness.clone();
        Arrays.sort(sorted);
        print(prefix + "lateness.min", String.format(Locale.ROOT, "%.2f", sorted[0]));
        print(prefix + "lateness.max", String.format(Locale.ROOT, "%.2f", sorted[sorted.length - 1]));
        return last;
    }

    /**
     * How late this JVM gets to run a thread that asks to wake 1 ms from now, at worst, while a round runs: the
     * stalls that no timer can beat (the process descheduled on a busy machine, a garbage collection pause).
     */
    private static final class StallProbe extends Thread {
        private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
        private volatile boolean running = true;
        /** Written by the probe thread; read after join. */
        private long worstNanos;

        StallProbe() {
            super("stall-probe");
            setDaemon(true);
        }

        @Override
        public void run() {
            while (running) {
                long asked = System.nanoTime() + PERIOD_NANOS;
                LockSupport.parkNanos(PERIOD_NANOS);
                worstNanos = Math.max(worstNanos, System.nanoTime() - asked);
            }
        }

        long finish() throws InterruptedException {
            running = false;
            join();
            return worstNanos;
        }
    }

    private static void print(String key, Object value) {
        System.out.println(key + "=" + value);
    }
}
