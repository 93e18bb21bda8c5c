/**
 * The hashed hierarchical timing wheel: a single-threaded, clock-free data structure whose entries are
 * their own O(1) cancel handles; and the striped inbox through which other threads hand entries to the
 * thread that owns a wheel.
 */
package io.timewheel.wheel;
