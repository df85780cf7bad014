package io.breaker.spring.aop;

import io.breaker.BreakerRegistry;
import io.breaker.CallTimeout;
import io.breaker.CircuitBreaker;
import io.breaker.spring.BreakerNames;
import io.breaker.spring.CircuitProtected;
import io.breaker.spring.ResultPredicate;
import io.breaker.spring.call.CallTimeouts;
import io.breaker.spring.observation.BreakerObservations;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The protected methods, each resolved once (breaker, fallback, return-type handling, the check of
 * results when the breaker has {@code record-result}, the timed path when it has {@code call-timeout})
 * and cached per
 * target class and {@link Method}. A call costs two identity-hit map reads; the first call of a method
 * that was not prepared at start-up resolves it.
 */
public final class ProtectedMethods {

    private static final boolean REACTOR_PRESENT =
            ClassUtils.isPresent("reactor.core.publisher.Mono", ProtectedMethods.class.getClassLoader());
    /** Kotlin's Flow type, by name: no Kotlin class is loaded unless the application is written in Kotlin. */
    private static final String FLOW = "kotlinx.coroutines.flow.Flow";
    /**
     * What a suspend fun or a Flow needs: Spring's AOP calls a suspend fun through kotlinx-coroutines-reactor
     * (which brings Reactor), and by kotlin-reflect.
     */
    private static final boolean COROUTINES_PRESENT = REACTOR_PRESENT
            && KotlinDetector.isKotlinReflectPresent()
            && ClassUtils.isPresent("kotlinx.coroutines.reactor.MonoKt", ProtectedMethods.class.getClassLoader());

    private final Supplier<BreakerRegistry> registry;
    private final Supplier<RecordedResults> recordedResults;
    private final Supplier<CallTimeouts> callTimeouts;
    private final Supplier<@Nullable BreakerObservations> observations;
    private final Map<Class<?>, Map<Method, ProtectedCall>> calls = new ConcurrentHashMap<>();
    /** Each breaker name used so far, with the first method using it (for start-up messages). */
    private final Map<String, Use> breakerNames = new ConcurrentHashMap<>();

    private final Set<Class<?>> prepared = ConcurrentHashMap.newKeySet();

    /**
     * @param registry where breakers come from; asked only when a method is first resolved
     */
    public ProtectedMethods(Supplier<BreakerRegistry> registry) {
        this(registry, () -> RecordedResults.NONE);
    }

    /**
     * @param registry        where breakers come from; asked only when a method is first resolved
     * @param recordedResults which results count as failures, per breaker; asked only when a method is first resolved
     */
    public ProtectedMethods(Supplier<BreakerRegistry> registry, Supplier<RecordedResults> recordedResults) {
        this(registry, recordedResults, () -> CallTimeouts.VIRTUAL_THREADS);
    }

    /**
     * @param registry        where breakers come from; asked only when a method is first resolved
     * @param recordedResults which results count as failures, per breaker; asked only when a method is first resolved
     * @param callTimeouts    how breakers with {@code call-timeout} run their calls; asked only when a method is
     *                        first resolved
     */
    public ProtectedMethods(
            Supplier<BreakerRegistry> registry,
            Supplier<RecordedResults> recordedResults,
            Supplier<CallTimeouts> callTimeouts) {
        this(registry, recordedResults, callTimeouts, () -> null);
    }

    /**
     * @param registry        where breakers come from; asked only when a method is first resolved
     * @param recordedResults which results count as failures, per breaker; asked only when a method is first resolved
     * @param callTimeouts    how breakers with {@code call-timeout} run their calls; asked only when a method is
     *                        first resolved
     * @param observations    the observations of calls, or {@code null} (no registry, or the no-op one): then a
     *                        call runs exactly as without Micrometer; asked only when a method is first resolved
     */
    public ProtectedMethods(
            Supplier<BreakerRegistry> registry,
            Supplier<RecordedResults> recordedResults,
            Supplier<CallTimeouts> callTimeouts,
            Supplier<@Nullable BreakerObservations> observations) {
        this.registry = registry;
        this.recordedResults = recordedResults;
        this.callTimeouts = callTimeouts;
        this.observations = observations;
    }

    /** The resolved call for an invocation. */
    ProtectedCall get(MethodInvocation invocation) {
        Object target = invocation.getThis();
        Method method = invocation.getMethod();
        Class<?> targetClass = target != null ? target.getClass() : method.getDeclaringClass();
        Map<Method, ProtectedCall> ofClass = calls.get(targetClass);
        if (ofClass != null) {
            ProtectedCall call = ofClass.get(method);
            if (call != null) {
                return call;
            }
        }
        return resolve(targetClass, method);
    }

    /**
     * Resolves and checks every protected method of {@code targetClass}, creating their breakers.
     *
     * @throws InvalidCircuitProtectedException for the first method that cannot be served
     */
    public void prepare(Class<?> targetClass) {
        if (!AnnotationUtils.isCandidateClass(targetClass, CircuitProtected.class) || !prepared.add(targetClass)) {
            return;
        }
        for (Method method :
                ReflectionUtils.getUniqueDeclaredMethods(targetClass, ReflectionUtils.USER_DECLARED_METHODS)) {
            if (findAnnotation(method, targetClass) != null) {
                resolve(targetClass, method);
            }
        }
    }

    /** The methods of {@code targetClass} that {@code @CircuitProtected} protects. */
    List<Method> protectedMethodsOf(Class<?> targetClass) {
        List<Method> found = new ArrayList<>();
        for (Method method :
                ReflectionUtils.getUniqueDeclaredMethods(targetClass, ReflectionUtils.USER_DECLARED_METHODS)) {
            if (findAnnotation(method, targetClass) != null) {
                found.add(method);
            }
        }
        return found;
    }

    /** The resolved call of {@code method} of {@code targetClass}, resolving it if needed. */
    ProtectedCall callFor(Class<?> targetClass, Method method) {
        return resolve(targetClass, method);
    }

    /** Breaker names used by the methods resolved so far, sorted. */
    public Set<String> breakerNames() {
        return new TreeSet<>(breakerNames.keySet());
    }

    /** A method protected by the named breaker, or {@code null}. */
    @Nullable
    Use usedBy(String breakerName) {
        return breakerNames.get(breakerName);
    }

    /** Where a breaker name is used: a bean class and one of its methods, as {@code name(ParamType, ...)}. */
    record Use(String beanClass, String method) {}

    /**
     * The annotation that protects {@code method} of {@code targetClass}: its own (also inherited from
     * an interface or superclass method), else its class's when the method is a public instance method
     * other than those of {@code Object}.
     */
    static @Nullable CircuitProtected findAnnotation(Method method, Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        CircuitProtected own = AnnotatedElementUtils.findMergedAnnotation(specific, CircuitProtected.class);
        if (own != null) {
            return own;
        }
        int modifiers = specific.getModifiers();
        if (!Modifier.isPublic(modifiers)
                || Modifier.isStatic(modifiers)
                || specific.getDeclaringClass() == Object.class
                || ReflectionUtils.isEqualsMethod(specific)
                || ReflectionUtils.isHashCodeMethod(specific)
                || ReflectionUtils.isToStringMethod(specific)) {
            return null;
        }
        return AnnotatedElementUtils.findMergedAnnotation(targetClass, CircuitProtected.class);
    }

    private ProtectedCall resolve(Class<?> targetClass, Method method) {
        Map<Method, ProtectedCall> ofClass = calls.computeIfAbsent(targetClass, type -> new ConcurrentHashMap<>());
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        ProtectedCall call = ofClass.get(specific);
        if (call == null) {
            ProtectedCall created = create(targetClass, specific);
            call = ofClass.putIfAbsent(specific, created);
            if (call == null) {
                call = created;
            }
        }
        if (specific != method) {
            ofClass.putIfAbsent(method, call);
        }
        return call;
    }

    /**
     * The call of {@code method}; observed ({@link ObservedCall}) when there are observations, decided here
     * once so that an unobserved call runs none of their code.
     */
    private ProtectedCall create(Class<?> targetClass, Method method) {
        BreakerObservations observed = observations.get();
        ObservedCall.@Nullable Kind kind = observed == null ? null : observedKind(method);
        ProtectedCall call = create(targetClass, method, observed);
        return kind == null || call == PassThrough.INSTANCE ? call : new ObservedCall(call, observed, kind);
    }

    /**
     * How a call of {@code method} is observed, or {@code null} for a plain method returning Kotlin's Flow,
     * whose call observes each collection itself ({@link KotlinCalls}).
     */
    private static ObservedCall.@Nullable Kind observedKind(Method method) {
        if (KotlinDetector.isSuspendingFunction(method)) {
            return ObservedCall.Kind.PUBLISHER;
        }
        Class<?> returnType = method.getReturnType();
        if (isFlow(returnType)) {
            return null;
        }
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            return ObservedCall.Kind.STAGE;
        }
        return REACTOR_PRESENT
                        && (returnType.getName().equals("reactor.core.publisher.Mono")
                                || returnType.getName().equals("reactor.core.publisher.Flux"))
                ? ObservedCall.Kind.PUBLISHER
                : ObservedCall.Kind.VALUE;
    }

    private ProtectedCall create(Class<?> targetClass, Method method, @Nullable BreakerObservations observed) {
        CircuitProtected annotation = findAnnotation(method, targetClass);
        if (annotation == null) {
            return PassThrough.INSTANCE;
        }
        int modifiers = method.getModifiers();
        if (Modifier.isPrivate(modifiers) || Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers)) {
            throw FallbackResolver.invalid(
                    targetClass,
                    method,
                    "a "
                            + (Modifier.isPrivate(modifiers)
                                    ? "private"
                                    : Modifier.isStatic(modifiers) ? "static" : "final")
                            + " method cannot be intercepted by a proxy; make it a public (or protected) instance method that is not final",
                    List.of());
        }
        String nameProblem = BreakerNames.problem(annotation.name());
        if (nameProblem != null) {
            throw new InvalidCircuitProtectedException(
                    targetClass.getName(),
                    FallbackResolver.describe(method),
                    nameProblem,
                    List.of(),
                    "Name the breaker with " + BreakerNames.RULE + ", in @CircuitProtected(name = ...)"
                            + " as under breakers.instances.");
        }
        boolean kotlin = KotlinDetector.isSuspendingFunction(method) || isFlow(method.getReturnType());
        if (kotlin && !COROUTINES_PRESENT) {
            throw new InvalidCircuitProtectedException(
                    targetClass.getName(),
                    FallbackResolver.describe(method),
                    (KotlinDetector.isSuspendingFunction(method) ? "a suspend fun" : "a method returning Flow")
                            + " needs kotlinx-coroutines-reactor and kotlin-reflect on the class path",
                    List.of(),
                    "Add org.jetbrains.kotlinx:kotlinx-coroutines-reactor and org.jetbrains.kotlin:kotlin-reflect"
                            + " to the application's dependencies.");
        }
        Fallback fallback = annotation.fallbackMethod().isEmpty()
                ? null
                : FallbackResolver.resolve(targetClass, method, annotation.fallbackMethod());
        if (fallback != null && observed != null) {
            fallback = new ObservedFallback(fallback, observed, annotation.name());
        }
        Class<?> returnType = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(returnType)
                && !returnType.isAssignableFrom(CompletableFuture.class)) {
            throw FallbackResolver.invalid(
                    targetClass,
                    method,
                    "its return type " + returnType.getName()
                            + " is not supported; asynchronous methods must return CompletionStage or CompletableFuture",
                    List.of());
        }
        RecordedResults.Rule rule = recordedResults.get().of(annotation.name());
        @Nullable
        ResultPredicate recordResult = rule == null
                ? null
                : rule.forMethod(annotation.name(), targetClass, method, resultType(targetClass, method));
        CircuitBreaker breaker = registry.get().breaker(annotation.name());
        breakerNames.putIfAbsent(annotation.name(), new Use(targetClass.getName(), FallbackResolver.describe(method)));
        @Nullable CallTimeout timeout = callTimeouts.get().of(breaker);
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            return new CompletionStageCall(breaker, fallback, recordResult, timeout);
        }
        if (kotlin) {
            if (timeout != null) {
                throw new InvalidCircuitProtectedException(
                        targetClass.getName(),
                        FallbackResolver.describe(method),
                        "its breaker '" + annotation.name() + "' has a call-timeout, which does not apply to a"
                                + " suspend fun or a Flow",
                        List.of(),
                        "Remove call-timeout from the breaker '" + annotation.name() + "' and bound the call with"
                                + " kotlinx.coroutines' withTimeout (or Flow's timeout) inside the method.");
            }
            return KotlinCalls.forMethod(method, breaker, fallback, recordResult, observed);
        }
        ProtectedCall reactive = REACTOR_PRESENT
                ? ReactorCalls.forReturnType(returnType, breaker, fallback, recordResult, timeout)
                : null;
        if (reactive != null) {
            return reactive;
        }
        if (timeout != null) {
            if (isTransactional(targetClass, method)) {
                throw new InvalidCircuitProtectedException(
                        targetClass.getName(),
                        FallbackResolver.describe(method),
                        "it runs in a transaction (@Transactional), and its breaker '" + annotation.name()
                                + "' has a call-timeout, which runs it on another thread: the transaction would not"
                                + " follow it, and a call given up at its timeout could still commit later",
                        List.of(),
                        "Remove call-timeout from the breaker '" + annotation.name() + "' (rely on the client's"
                                + " and the database's own timeouts), or protect a method that runs outside the"
                                + " transaction.");
            }
            return new TimedSyncCall(breaker, fallback, recordResult, timeout, FallbackResolver.describe(method));
        }
        return recordResult == null
                ? new SyncCall(breaker, fallback)
                : new ResultCheckingSyncCall(breaker, fallback, recordResult);
    }

    /**
     * What {@code record-result} gets to see of a method's results: its return type (primitives boxed,
     * {@code void} as it is), or the element type of its {@code CompletionStage}, {@code Mono} or
     * {@code Flux}, or Kotlin's {@code Flow}; of a suspend fun, its declared return type ({@code Object}
     * when a type variable or a raw type leaves it open).
     */
    static Class<?> resultType(Class<?> targetClass, Method method) {
        ResolvableType declared = ResolvableType.forMethodReturnType(method, targetClass);
        // Of a suspend fun, Spring reads the type Kotlin declares, not the JVM's Object.
        Class<?> returnType = KotlinDetector.isSuspendingFunction(method) ? declared.toClass() : method.getReturnType();
        if (isFlow(returnType)) {
            return declared.getGeneric(0).toClass();
        }
        if (returnType.getName().equals("kotlin.Unit")) {
            return void.class;
        }
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            return declared.as(CompletionStage.class).getGeneric(0).toClass();
        }
        if (returnType.getName().equals("reactor.core.publisher.Mono")
                || returnType.getName().equals("reactor.core.publisher.Flux")) {
            return declared.getGeneric(0).toClass();
        }
        return returnType == void.class ? void.class : ClassUtils.resolvePrimitiveIfNecessary(returnType);
    }

    /** Transaction annotations, by name: neither Spring's nor Jakarta's need be on the class path. */
    private static final List<String> TRANSACTIONAL =
            List.of("org.springframework.transaction.annotation.Transactional", "jakarta.transaction.Transactional");

    /** Whether {@code method} or its class (or what they inherit from) carries a transaction annotation. */
    static boolean isTransactional(Class<?> targetClass, Method method) {
        MergedAnnotations onMethod = MergedAnnotations.from(method, SearchStrategy.TYPE_HIERARCHY);
        MergedAnnotations onClass = MergedAnnotations.from(targetClass, SearchStrategy.TYPE_HIERARCHY);
        for (String annotation : TRANSACTIONAL) {
            if (onMethod.isPresent(annotation) || onClass.isPresent(annotation)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code type} is Kotlin's {@code Flow}, checked by name. */
    private static boolean isFlow(Class<?> type) {
        return type.getName().equals(FLOW);
    }

    /** Throws {@code error}, checked or not, from a method that declares none. */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> T sneaky(Throwable error) throws T {
        throw (T) error;
    }

    /** For a method the pointcut matched but that turns out not to be protected: it just proceeds. */
    private static final class PassThrough extends ProtectedCall {

        static final PassThrough INSTANCE = new PassThrough();

        private PassThrough() {
            super(null, null);
        }

        @Override
        @Nullable
        Object invoke(MethodInvocation invocation) throws Throwable {
            return invocation.proceed();
        }
    }
}
