package sampleapp;

import com.sun.tools.attach.VirtualMachine;

import java.net.URL;
import java.nio.file.Paths;
import java.util.function.Supplier;

/**
 * nettyTimers under attach: a HashedWheelTimer loaded before the agent stays Netty's; one loaded after it,
 * in another plugin class loader, is swapped. Arguments: the agent jar, its options, a netty-common jar,
 * the sample classes directory. Needs {@code -Djdk.attach.allowAttachSelf=true} (and
 * {@code -XX:+EnableDynamicAgentLoading} on JDK 21+).
 */
public final class NettyAttachApp {

    private NettyAttachApp() {
    }

    public static void main(String[] args) throws Exception {
        URL[] urls = {Paths.get(args[2]).toUri().toURL(), Paths.get(args[3]).toUri().toURL()};
        NettyTimerApp.PluginLoader early = new NettyTimerApp.PluginLoader("early", urls, ClassLoader.getSystemClassLoader());
        Observe.print("before", probe(early));

        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgent(args[0], args[1]);
        } finally {
            vm.detach();
        }

        Observe.print("after.earlyLoader", probe(early));
        Observe.print("after.lateLoader", probe(new NettyTimerApp.PluginLoader("late", urls, ClassLoader.getSystemClassLoader())));
        System.exit(0);
    }

    @SuppressWarnings("unchecked")
    private static String probe(ClassLoader loader) throws Exception {
        return ((Supplier<String>) Class.forName("sampleapp.netty.SwapProbe", true, loader).getConstructor().newInstance())
                .get();
    }
}
