package io.breaker.test;

import io.breaker.BreakerConfig;
import io.breaker.BreakerRegistry;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Before each test: every breaker back to CLOSED with a fresh window, no operator state and its
 * configured settings; then the test's {@link ForceBreaker}s; then {@link Breakers} works on these
 * breakers until the test ends. Test methods may declare a {@link BreakerClock} or a
 * {@link BreakerRegistry} parameter.
 *
 * <ul>
 * <li>In a Spring test (one run by Spring's {@code SpringExtension}, as {@code @SpringBootTest} and the
 *     slices are), the breakers are the application's, on the {@link BreakerClock} bean that
 *     {@link AutoConfigureBreakers} adds; that annotation registers this extension too.</li>
 * <li>In a plain JUnit test, each test gets a new clock and an empty registry of breakers with the
 *     default settings on it, as parameters; {@link BreakerSettings} builds breakers from a user's
 *     own settings instead.</li>
 * </ul>
 */
public class BreakerExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final boolean SPRING_TEST_PRESENT =
            isPresent("org.springframework.test.context.junit.jupiter.SpringExtension");

    @Override
    public void beforeEach(ExtensionContext context) {
        boolean spring = SPRING_TEST_PRESENT && SpringBreakers.runsWithSpring(context);
        BreakerSession session = spring ? SpringBreakers.session(context) : plainSession();
        session.resetAll();
        if (spring) {
            SpringBreakers.forgetEventsOfTheReset();
        }
        Breakers.begin(session);
        for (ForceBreaker force : forces(context)) {
            session.force(force.name(), force.state());
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Breakers.end();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == BreakerClock.class || type == BreakerRegistry.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        BreakerSession session = Breakers.currentOrNull();
        if (session == null) {
            throw new IllegalStateException("A BreakerClock or BreakerRegistry parameter is resolved for test"
                    + " methods and @BeforeEach methods only, once BreakerExtension has set the test up");
        }
        return parameter.getParameter().getType() == BreakerClock.class ? session.clock() : session.registry();
    }

    private static BreakerSession plainSession() {
        BreakerClock clock = BreakerClock.startingNow();
        return new BreakerSession(
                BreakerRegistry.of(BreakerConfig.ofDefaults(), Map.of(), clock, clock.wallClock(), null), clock);
    }

    /** The test class's forces (outermost class first), then the method's. */
    private static List<ForceBreaker> forces(ExtensionContext context) {
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> type = context.getRequiredTestClass(); type != null; type = type.getEnclosingClass()) {
            classes.add(0, type);
        }
        List<ForceBreaker> forces = new ArrayList<>();
        for (Class<?> type : classes) {
            forces.addAll(AnnotationSupport.findRepeatableAnnotations(type, ForceBreaker.class));
        }
        context.getTestMethod()
                .ifPresent(method ->
                        forces.addAll(AnnotationSupport.findRepeatableAnnotations(method, ForceBreaker.class)));
        return forces;
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, BreakerExtension.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
