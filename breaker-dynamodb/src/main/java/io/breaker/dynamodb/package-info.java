/**
 * A breaker state shared by a fleet through an Amazon DynamoDB table: the store (an implementation of
 * the core's {@code io.breaker.spi.StateStore}), its settings ({@code breakers.store.*} with
 * {@code breakers.store.type=dynamodb}) and auto-configuration. Applications configure it with
 * properties or build a {@link io.breaker.dynamodb.DynamoStateStore} in code; the other classes are
 * internal. Nothing is null unless marked {@code @Nullable}.
 */
@NullMarked
package io.breaker.dynamodb;

import org.jspecify.annotations.NullMarked;
