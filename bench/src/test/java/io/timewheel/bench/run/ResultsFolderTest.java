package io.timewheel.bench.run;

import io.timewheel.bench.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A full run's folder is regenerated: what the run writes is deleted first, anything else is kept and named. */
class ResultsFolderTest {

    @Test
    void clear_deletesWhatAFullRunWrites_andKeepsEverythingElse(@TempDir Path dir) throws Exception {
        write(dir, "report.md", Report.TITLE + " (Java 17)\n");
        write(dir, "lateness.png", "png");
        write(dir, "raw/expiry.json", "{}");
        write(dir, "raw/lateness-fjp.hgrm", "a peer this run may not measure");
        write(dir, "raw/punctuality-bursts.csv", "");
        write(dir, "notes.txt", "a file of someone's");
        write(dir, "raw/extra.log", "not a figure");

        ResultsFolder folder = new ResultsFolder(dir);
        List<String> deleted = folder.clear();

        assertEquals(List.of("lateness.png", "raw/expiry.json", "raw/lateness-fjp.hgrm", "raw/punctuality-bursts.csv", "report.md"), deleted);
        assertEquals(List.of("notes.txt", "raw/extra.log"), folder.foreign());
        assertTrue(Files.exists(dir.resolve("notes.txt")) && Files.exists(dir.resolve("raw/extra.log")));
        assertFalse(Files.exists(dir.resolve("report.md")));
    }

    @Test
    void clear_createsAnAbsentFolder(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("jdk21");
        assertEquals(List.of(), new ResultsFolder(dir).clear());
        assertTrue(Files.isDirectory(dir.resolve("raw")));
    }

    @Test
    void clear_refusesAFolderWithFilesButNoReport(@TempDir Path dir) throws Exception {
        write(dir, "holiday.png", "someone's picture");
        write(dir, "report.md", "# my own report\n");

        assertThrows(IllegalStateException.class, () -> new ResultsFolder(dir).clear());
        assertTrue(Files.exists(dir.resolve("holiday.png")) && Files.exists(dir.resolve("report.md")));
    }

    @Test
    void owns_theReportItsChartsAndTheRawFigures_only() {
        ResultsFolder folder = new ResultsFolder(Path.of("unused"));
        for (String owned : List.of("report.md", "schedule-cancel-vs-pending.png", "raw/schedule-cancel-t1.json", "raw/lateness-kafka.hgrm",
                "raw/lateness-burst.csv")) {
            assertTrue(folder.owns(owned), owned);
        }
        for (String other : List.of("README.md", "compare-peers.txt", "raw/expiry.log", "old/report.md", "raw/sub/expiry.json")) {
            assertFalse(folder.owns(other), other);
        }
    }

    private static void write(Path dir, String relative, String text) throws Exception {
        Path p = dir.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }
}
