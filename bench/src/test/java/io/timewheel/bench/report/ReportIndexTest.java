package io.timewheel.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** writeIndex lists the runs and keeps what was written by hand after its part of bench/results/README.md. */
class ReportIndexTest {

    @Test
    void writeIndex_listsEveryRun_andKeepsTheHandWrittenRest(@TempDir Path results) throws Exception {
        Files.createDirectories(results.resolve("jdk17"));
        Files.writeString(results.resolve("jdk17/report.md"), "# report\n");
        Files.writeString(results.resolve("README.md"), "# old head\n\n" + Report.INDEX_END
                + "\nBeside each report, outputs of the interleaved scripts: `compare-peers.txt`.\n");
        Files.createDirectories(results.resolve("jdk25"));
        Files.writeString(results.resolve("jdk25/report.md"), "# report\n");

        Report.writeIndex(results);

        String index = Files.readString(results.resolve("README.md"));
        assertTrue(index.contains("- [jdk17](jdk17/report.md)") && index.contains("- [jdk25](jdk25/report.md)"), index);
        assertTrue(index.endsWith(Report.INDEX_END + "\nBeside each report, outputs of the interleaved scripts: `compare-peers.txt`.\n"),
                index);
        assertTrue(!index.contains("old head"), index);
    }
}
