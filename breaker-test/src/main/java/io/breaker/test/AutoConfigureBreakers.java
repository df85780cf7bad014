package io.breaker.test;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts an application's breakers under the test's control: they run on a {@link BreakerClock} (a bean
 * the test can inject) instead of real time, and {@link BreakerExtension} resets them before each
 * test. Works with {@code @SpringBootTest} and with test slices such as {@code @WebMvcTest} and
 * {@code @WebFluxTest}, which it gives the breakers, {@code @CircuitProtected} and the transition log
 * and events (the auto-configurations listed in
 * {@code META-INF/spring/io.breaker.test.AutoConfigureBreakers.imports}).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ImportAutoConfiguration
@ExtendWith(BreakerExtension.class)
public @interface AutoConfigureBreakers {}
