/**
 * What every store module (Redis, DynamoDB) reads alike: which breakers are shared and through which
 * store ({@code breakers.store.type}, {@code breakers.instances.<name>.store.type}), and what a shared
 * breaker does while its store cannot be reached ({@code breakers.store.failure-mode}). One definition,
 * so that an application with several store modules binds the same text the same way.
 * Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.spring.store;

import org.jspecify.annotations.NullMarked;
