package io.timewheel.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Reads class files the agent defines itself: the bridge (into the bootstrap loader) and the netty
 * module's classes (into the class loader of a HashedWheelTimer). Stateless: any thread.
 */
final class ClassFiles {
    /*
     * Implementation notes
     *
     * From the agent jar directly when the class sits in a plain jar file: at start-up that is cheaper than
     * a class loader resource, which goes through URL handlers and probes the JDK's modules first. A whole
     * package tree is read from wherever a class loader finds one of its classes, a jar or a directory,
     * so that the agent run from a build's class directories (its unit tests) reads the same classes. No
     * lambdas or streams: this runs at start-up or while a class loads (see the agent pom on start-up cost).
     */

    private ClassFiles() {
    }

    /** The class file of {@code internalName}, from the jar that holds {@code neighbour}, else its class loader. */
    static byte[] of(Class<?> neighbour, String internalName) throws IOException {
        String entryName = internalName + ".class";
        try {
            CodeSource source = neighbour.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
                File location = new File(source.getLocation().toURI());
                if (location.isFile()) {
                    try (JarFile jar = new JarFile(location)) {
                        JarEntry entry = jar.getJarEntry(entryName);
                        if (entry != null) {
                            try (InputStream in = jar.getInputStream(entry)) {
                                return in.readAllBytes();
                            }
                        }
                    }
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException notAPlainJar) {
            // fall back to the class loader
        }
        try (InputStream in = neighbour.getResourceAsStream("/" + entryName)) {
            if (in == null) {
                throw new IllegalStateException("the agent jar has no " + entryName);
            }
            return in.readAllBytes();
        }
    }

    /**
     * Every class file under {@code packagePrefix} (internal form, ending in {@code /}) in the jar or
     * directory where {@code loader} finds {@code anchor} (an internal name under that prefix), by
     * internal name, in name order.
     *
     * @throws IllegalStateException if {@code loader} does not find {@code anchor}
     */
    static Map<String, byte[]> tree(ClassLoader loader, String anchor, String packagePrefix) throws IOException {
        URL url = loader.getResource(anchor + ".class");
        if (url == null) {
            throw new IllegalStateException("the agent jar has no " + anchor.replace('/', '.'));
        }
        Map<String, byte[]> classes = new TreeMap<>();
        if ("jar".equals(url.getProtocol())) {
            JarURLConnection connection = (JarURLConnection) url.openConnection();
            connection.setUseCaches(false);
            try (JarFile jar = connection.getJarFile()) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry entry = entries.nextElement();
                    String name = entry.getName();
                    if (name.startsWith(packagePrefix) && name.endsWith(".class")) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            classes.put(name.substring(0, name.length() - ".class".length()), in.readAllBytes());
                        }
                    }
                }
            }
        } else if ("file".equals(url.getProtocol())) {
            Path anchorFile;
            try {
                anchorFile = Paths.get(url.toURI());
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
            Path root = anchorFile;
            for (int depth = anchor.split("/").length; depth > 0; depth--) {
                root = root.getParent();
            }
            List<Path> files = new ArrayList<>();
            collect(root.resolve(packagePrefix), files);
            for (Path file : files) {
                String name = root.relativize(file).toString().replace(File.separatorChar, '/');
                classes.put(name.substring(0, name.length() - ".class".length()), Files.readAllBytes(file));
            }
        } else {
            throw new IllegalStateException("cannot list the classes of " + url);
        }
        return classes;
    }

    /** The class files under {@code directory}, recursively (no streams: this runs while a class loads). */
    private static void collect(Path directory, List<Path> files) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry)) {
                    collect(entry, files);
                } else if (entry.getFileName().toString().endsWith(".class")) {
                    files.add(entry);
                }
            }
        }
    }
}
