package io.timewheel.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loads the classes of the {@code fixtures} package itself, child first, after putting their class
 * files through a {@link ClassFileTransformer} exactly as the JVM would at class load; everything else
 * comes from the test class path (so the wheel executor is the executor module's). Classes of a
 * user-defined loader are verified by the JVM, so a bad rewrite fails to load here.
 */
final class TransformingLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final ClassFileTransformer transformer;
    /** Binary names of the classes the transformer changed. */
    final Set<String> rewritten = ConcurrentHashMap.newKeySet();

    TransformingLoader(ClassFileTransformer transformer) {
        super("fixtures-under-test", TransformingLoader.class.getClassLoader());
        this.transformer = transformer;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith("fixtures.")) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                String internalName = name.replace('.', '/');
                byte[] original = classFile(internalName);
                byte[] changed;
                try {
                    changed = transformer.transform(this, internalName, null, null, original);
                } catch (IllegalClassFormatException e) {
                    throw new IllegalStateException(e);
                }
                if (changed != null) {
                    rewritten.add(name);
                }
                byte[] bytes = changed != null ? changed : original;
                type = defineClass(name, bytes, 0, bytes.length);
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }

    /** Loads, links (verifies) and initialises a fixture. */
    Class<?> initialise(String name) throws ClassNotFoundException {
        return Class.forName(name, true, this);
    }

    static byte[] classFile(String internalName) {
        try (InputStream in = ClassLoader.getSystemResourceAsStream(internalName + ".class")) {
            if (in == null) {
                throw new IllegalStateException("no class file for " + internalName);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
