package io.timewheel.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.security.ProtectionDomain;

/**
 * A class loader holding one netty-common jar, as an application's loader would: {@code io.netty.*} from
 * that jar and the {@code fixtures.netty} scenario from the test classes, both child first, each class put
 * through a {@link ClassFileTransformer} (or none) as the JVM would at class load; everything else from
 * the test class path. Classes of a user-defined loader are verified by the JVM, so a bad rewrite fails to
 * load here. {@link #INJECTOR} defines classes in it for the agent, as {@link ClassDefiner} would.
 */
final class NettyLoader extends URLClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final ClassFileTransformer transformer;

    NettyLoader(String name, Path nettyJar, ClassFileTransformer transformer) {
        super(name, new URL[]{url(nettyJar)}, NettyLoader.class.getClassLoader());
        this.transformer = transformer;
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Defines classes in a NettyLoader, for the transformer's injection; refuses any other loader. */
    static final NettyTimerTransformer.Injector INJECTOR = new NettyTimerTransformer.Injector() {
        @Override
        public Class<?> define(String binaryName, byte[] classFile, ClassLoader loader, ProtectionDomain domain) {
            if (!(loader instanceof NettyLoader nettyLoader)) {
                throw new IllegalStateException("asked to define " + binaryName + " in " + loader);
            }
            return nettyLoader.defineClass(binaryName, classFile, 0, classFile.length, domain);
        }
    };

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        boolean own = name.startsWith("io.netty.") || name.startsWith("fixtures.netty.");
        if (!own) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                String internalName = name.replace('.', '/');
                byte[] original = classFile(internalName);
                if (original == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] changed = null;
                if (transformer != null) {
                    try {
                        changed = transformer.transform(this, internalName, null, null, original);
                    } catch (IllegalClassFormatException e) {
                        throw new IllegalStateException(e);
                    }
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

    /** From the jar for io.netty, from the test class path for the fixtures; null if absent. */
    private byte[] classFile(String internalName) {
        String resource = internalName + ".class";
        try (InputStream in = internalName.startsWith("io/netty/") ? findResourceStream(resource)
                : ClassLoader.getSystemResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private InputStream findResourceStream(String resource) throws IOException {
        URL url = findResource(resource);
        return url == null ? null : url.openStream();
    }
}
