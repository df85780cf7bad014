/**
 * The build step that turns the shipped Prometheus rules file into a Prometheus Operator
 * {@code PrometheusRule}. Applications do not use this package: the artifact is for its files (the
 * Grafana dashboard, the rules and the {@code PrometheusRule}). Nothing is null unless marked
 * {@code @Nullable}.
 */
@NullMarked
package io.breaker.observability;

import org.jspecify.annotations.NullMarked;
