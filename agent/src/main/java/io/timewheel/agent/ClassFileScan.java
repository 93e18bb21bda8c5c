package io.timewheel.agent;

import java.nio.charset.StandardCharsets;

/**
 * The agent's filter for every class the JVM loads: does this class file name a given class at all?
 * Any thread.
 */
final class ClassFileScan {
    /*
     * Implementation notes
     *
     * A class that constructs, extends or references STPE has the exact UTF-8 constant
     * java/util/concurrent/ScheduledThreadPoolExecutor in its constant pool (the name of its
     * CONSTANT_Class). Walking the constant pool (JVMS 4.4) costs one step per entry and skips
     * almost every UTF-8 entry on its length alone, so the thousands of classes that do not mention STPE
     * are let through without being parsed. Descriptor-only mentions (Ljava/...;) are different
     * constants and do not match; they need no rewriting.
     */

    private static final int MAGIC = 0xCAFEBABE;

    private ClassFileScan() {
    }

    static byte[] utf8(String internalName) {
        return internalName.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * True if the constant pool of {@code classFile} holds the UTF-8 constant {@code name}. False for
     * anything that is not a readable class file or holds a constant tag this code does not know: such
     * a class is left to the JVM untouched.
     */
    static boolean hasUtf8(byte[] classFile, byte[] name) {
        try {
            if (u4(classFile, 0) != MAGIC) {
                return false;
            }
            int count = u2(classFile, 8);
            int at = 10;
            for (int index = 1; index < count; index++) {
                int tag = classFile[at] & 0xFF;
                switch (tag) {
                    case 1 -> { // Utf8: u2 length, bytes
                        int length = u2(classFile, at + 1);
                        if (length == name.length && regionEquals(classFile, at + 3, name)) {
                            return true;
                        }
                        at += 3 + length;
                    }
                    case 7, 8, 16, 19, 20 -> at += 3; // Class, String, MethodType, Module, Package
                    case 15 -> at += 4; // MethodHandle
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> at += 5; // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                    case 5, 6 -> { // Long, Double take two slots
                        at += 9;
                        index++;
                    }
                    default -> {
                        return false;
                    }
                }
            }
            return false;
        } catch (ArrayIndexOutOfBoundsException truncated) {
            return false;
        }
    }

    private static boolean regionEquals(byte[] bytes, int from, byte[] expected) {
        for (int i = expected.length - 1; i >= 0; i--) { // the distinctive end first
            if (bytes[from + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static int u2(byte[] bytes, int at) {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }

    private static int u4(byte[] bytes, int at) {
        return (u2(bytes, at) << 16) | u2(bytes, at + 2);
    }
}
