package sampleapp;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Runs {@code sampleapp.netty.TimerChecks} (an unmodified use of Netty's HashedWheelTimer) and prints
 * what it saw. Arguments: {@code system} (netty-common is on the class path), or {@code plugin} or
 * {@code isolated}, a netty-common jar and the sample classes directory: netty-common and the checks
 * then live in a plugin class loader whose parent is the system class loader ({@code plugin}, as
 * Spring Boot's and most plugin loaders) or the platform class loader ({@code isolated}).
 */
public final class NettyTimerApp {

    private NettyTimerApp() {
    }

    public static void main(String[] args) throws Exception {
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        if (!args[0].equals("system")) {
            URL[] urls = {Paths.get(args[1]).toUri().toURL(), Paths.get(args[2]).toUri().toURL()};
            loader = new PluginLoader(args[0], urls, args[0].equals("plugin") ? ClassLoader.getSystemClassLoader()
                    : ClassLoader.getPlatformClassLoader());
        }
        @SuppressWarnings("unchecked")
        Supplier<Map<String, String>> checks = (Supplier<Map<String, String>>) Class.forName(
                "sampleapp.netty.TimerChecks", true, loader).getConstructor().newInstance();
        for (Map.Entry<String, String> entry : checks.get().entrySet()) {
            Observe.print(entry.getKey(), entry.getValue());
        }
        Observe.print("done", "true");
    }

    /**
     * Loads the plugin's own package itself before asking its parent (the sample classes directory is also
     * on the system class path); parent first for everything else, so netty-common, which only it has,
     * comes from its jar.
     */
    static final class PluginLoader extends URLClassLoader {
        static {
            registerAsParallelCapable();
        }

        PluginLoader(String name, URL[] urls, ClassLoader parent) {
            super(name, urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("sampleapp.netty.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> type = findLoadedClass(name);
                if (type == null) {
                    type = findClass(name);
                }
                if (resolve) {
                    resolveClass(type);
                }
                return type;
            }
        }
    }
}
