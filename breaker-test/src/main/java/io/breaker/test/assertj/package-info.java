/**
 * AssertJ assertions on breakers and their transitions; start from
 * {@link io.breaker.test.assertj.BreakerAssertions}. Needs AssertJ on the test class path.
 */
@NullMarked
package io.breaker.test.assertj;

import org.jspecify.annotations.NullMarked;
