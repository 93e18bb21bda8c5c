package io.timewheel.tck.soak;

/**
 * A thread of a round (a producer or the controller) and what it is doing, so that the round can tell
 * when nothing will happen any more unless it steps in: every actor done, or blocked in a call that may
 * wait for ever (an untimed invokeAll / invokeAny whose tasks shutdownNow or a queue operation took away,
 * or close() on an executor that keeps a far-future task).
 */
final class Actor {
    static final int RUNNING = 0;
    static final int BLOCKED = 1;
    static final int DONE = 2;

    final String name;
    final Thread thread;
    /** RUNNING -> BLOCKED -> RUNNING ... -> DONE. Written by the actor's thread only. */
    private volatile int state = RUNNING;

    Actor(String name, Runnable body) {
        this.name = name;
        this.thread = new Thread(() -> {
            try {
                body.run();
            } finally {
                state = DONE;
            }
        }, name);
        this.thread.setDaemon(true);
    }

    void blocked() {
        state = BLOCKED;
    }

    void running() {
        state = RUNNING;
    }

    boolean idle() {
        return state != RUNNING;
    }
}
