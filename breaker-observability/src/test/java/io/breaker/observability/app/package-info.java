/** The application the end-to-end test scrapes with a real Prometheus. */
@NullMarked
package io.breaker.observability.app;

import org.jspecify.annotations.NullMarked;
