package io.timewheel.tck.jcstress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs jcstress ({@code org.openjdk.jcstress.Main}) with the given arguments and exits with status 1 if any
 * test failed or errored, which jcstress itself does not do; the Maven {@code -Pjcstress} build runs this so
 * that a FORBIDDEN outcome fails the build. Its console output is passed through unchanged.
 *
 * <pre>
 * ./mvnw -B -Pjcstress -pl tck/jcstress -am -DskipTests verify
 * </pre>
 */
public final class RunJcstress {
    private RunJcstress() {}

    public static void main(String[] args) throws Exception {
        PrintStream console = System.out;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setOut(new PrintStream(new Tee(console, copy), true, StandardCharsets.UTF_8));
        try {
            org.openjdk.jcstress.Main.main(args);
        } finally {
            System.out.flush();
            System.setOut(console);
        }
        String output = copy.toString(StandardCharsets.UTF_8);
        boolean clean = output.contains("Failed tests: No matches.") && output.contains("Error tests: No matches.");
        if (!clean) {
            console.println("jcstress reported failed or erroneous tests (see above and target/results/index.html)");
            System.exit(1);
        }
        console.println("jcstress: no failed and no erroneous tests");
    }

    /** Writes everything to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
