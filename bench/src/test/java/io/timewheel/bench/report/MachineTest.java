package io.timewheel.bench.report;

import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A report run from a copy of the jar outside the repository still names the commit the jar was built from. */
class MachineTest {

    @Test
    void builtFrom_namesTheCommitTheBuildRecorded() throws Exception {
        Properties recorded = new Properties();
        try (InputStream in = Machine.class.getResourceAsStream("build-commit.properties")) {
            if (in == null) {
                // a build without git records nothing: the reports say so
                assertEquals("unknown", Machine.builtFrom());
                return;
            }
            recorded.load(in);
        }
        String commit = recorded.getProperty("git.commit.id.abbrev");
        String built = Machine.builtFrom();
        assertTrue(commit.matches("[0-9a-f]{7,}"), commit);
        assertTrue(built.startsWith(commit) && built.endsWith(", the jar's build"), built);
        assertEquals(Boolean.parseBoolean(recorded.getProperty("git.dirty")), built.contains("uncommitted"), built);
    }
}
