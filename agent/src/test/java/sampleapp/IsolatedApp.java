package sampleapp;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Loads {@code sampleapp.plugin.Plugin} in class loaders that cannot see the system class loader, as
 * plugin and module systems do, and prints what it built there. Arguments: the sample classes
 * directory, then optionally a jar holding another copy of the executor.
 */
public final class IsolatedApp {

    private IsolatedApp() {
    }

    public static void main(String[] args) throws Exception {
        URL samples = Paths.get(args[0]).toUri().toURL();
        run("platformParent", new URLClassLoader("platform-parent", new URL[]{samples}, ClassLoader.getPlatformClassLoader()));
        run("nullParent", new URLClassLoader("null-parent", new URL[]{samples}, null));
        if (args.length > 1) {
            URL executorCopy = Paths.get(args[1]).toUri().toURL();
            run("ownCopy", new URLClassLoader("own-copy", new URL[]{samples, executorCopy},
                    ClassLoader.getPlatformClassLoader()));
        }
        // The same plugin class, loaded as the application's own.
        run("system", null);
    }

    @SuppressWarnings("unchecked")
    private static void run(String name, URLClassLoader loader) throws Exception {
        Class<?> plugin = loader == null ? Class.forName("sampleapp.plugin.Plugin")
                : Class.forName("sampleapp.plugin.Plugin", true, loader);
        Map<String, String> seen = ((Supplier<Map<String, String>>) plugin.getConstructor().newInstance()).get();
        List<String> keys = new ArrayList<>(seen.keySet());
        for (String key : keys) {
            Observe.print(name + "." + key, seen.get(key));
        }
        if (loader != null) {
            loader.close();
        }
    }
}
