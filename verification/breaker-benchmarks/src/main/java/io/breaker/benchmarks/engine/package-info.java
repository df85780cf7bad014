/**
 * The engine suite: the CLOSED and OPEN paths and their floors, on 1, 2 and 4 threads, and the heap per
 * breaker. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.benchmarks.engine;

import org.jspecify.annotations.NullMarked;
