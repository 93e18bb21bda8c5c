package io.timewheel.bench.run;

import io.timewheel.bench.report.Report;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folder a full run writes (one JVM's thread; not thread safe): the files it owns, and clearing them before a
 * run so that the folder is regenerated, never appended to.
 */
final class ResultsFolder {

    /*
     * Implementation notes.
     *
     * The full run owns what it writes: report.md, the charts (*.png) beside it, and in raw/ the figures they are
     * drawn from (JMH's JSON, the lateness histograms, the per-burst CSVs). Owned is a set of patterns, not a list
     * of names, because some names depend on the run (a histogram per peer, and the peers differ by JDK and by
     * --peers): a peer measured last time and not this time must not leave its old histogram behind.
     *
     * Clearing deletes the owned files and nothing else. A file in the folder that the run does not own stays
     * where it is and is named on the console, so that a folder meant to hold one run's evidence does not
     * silently hold more. A folder that has files but no report of a full run is not a results folder (a typo in
     * --out, a home directory): the run refuses it rather than delete the *.png files of someone else.
     */

    /** The files a full run writes, as globs relative to its folder (immutable). */
    static final List<String> OWNED = List.of("report.md", "*.png", "raw/*.json", "raw/*.hgrm", "raw/*.csv");

    private final Path dir;
    private final List<PathMatcher> owned = new ArrayList<>();

    ResultsFolder(Path dir) {
        this.dir = dir;
        for (String glob : OWNED) {
            owned.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
        }
    }

    Path dir() {
        return dir;
    }

    Path raw(String name) {
        return dir.resolve("raw").resolve(name);
    }

    /**
     * Deletes the files a full run owns and returns them (relative paths, sorted); creates the folder and raw/.
     *
     * @throws IllegalStateException when the folder holds files but no report of a full run
     */
    List<String> clear() throws IOException {
        List<String> files = files();
        if (!files.isEmpty() && !holdsReport()) {
            throw new IllegalStateException(dir + " holds files and no report of a full run (" + String.join(", ",
                    files.subList(0, Math.min(5, files.size()))) + (files.size() > 5 ? ", ..." : "")
                    + "): name an empty folder or a previous run's");
        }
        List<String> deleted = new ArrayList<>();
        for (String f : files) {
            if (owns(f)) {
                Files.delete(dir.resolve(f));
                deleted.add(f);
            }
        }
        Files.createDirectories(dir.resolve("raw"));
        return deleted;
    }

    /** The files in the folder (relative paths, sorted) that a full run does not write. */
    List<String> foreign() throws IOException {
        List<String> foreign = new ArrayList<>();
        for (String f : files()) {
            if (!owns(f)) {
                foreign.add(f);
            }
        }
        return foreign;
    }

    /** Whether a full run writes the file at this path relative to the folder ("raw/expiry.json"). */
    boolean owns(String relative) {
        Path p = Path.of(relative);
        for (PathMatcher m : owned) {
            if (m.matches(p)) {
                return true;
            }
        }
        return false;
    }

    private boolean holdsReport() throws IOException {
        Path report = dir.resolve("report.md");
        if (!Files.isRegularFile(report)) {
            return false;
        }
        try (Stream<String> lines = Files.lines(report)) {
            return lines.findFirst().map(l -> l.startsWith(Report.TITLE)).orElse(false);
        }
    }

    /** Every regular file under the folder, as a relative path with '/' separators, sorted; none if it is absent. */
    private List<String> files() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
    }
}
