/**
 * The hashed hierarchical timing wheel: a single-threaded, clock-free data structure whose entries are
 * their own O(1) cancel handles.
 */
package io.timewheel.wheel;
