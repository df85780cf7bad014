package io.breaker.spring.aop;

import io.breaker.spring.ResultPredicate;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which results of {@code @CircuitProtected} methods count as failures, per breaker
 * ({@code record-result}): a breaker's own rule, else the one in {@code breakers.defaults}, else none.
 * Every rule is checked when it is made (a bad status range, an unknown bean), and each protected
 * method once, when it is resolved: its result type must fit its breaker's rule. A method whose
 * breaker has no rule gets no check at all, so its calls do no extra work.
 */
public final class RecordedResults {

    /** No breaker records results. */
    public static final RecordedResults NONE = new RecordedResults(Map.of(), null);

    static final String HTTP_STATUS_ALLOWED =
            "a list of HTTP status codes from 100 to 599 and inclusive ranges of them," + " such as [500-599, 429]";

    private static final Pattern CODE_OR_RANGE = Pattern.compile("(\\d+)(?:\\s*-\\s*(\\d+))?");
    private static final String HTTP_STATUS_CODE = "org.springframework.http.HttpStatusCode";

    private final Map<String, Rule> instances;
    private final @Nullable Rule defaults;

    /**
     * @param instances the rules set by breakers' own sections, by breaker name
     * @param defaults  the rule set in {@code breakers.defaults}, or {@code null}
     */
    public RecordedResults(Map<String, Rule> instances, @Nullable Rule defaults) {
        this.instances = Map.copyOf(instances);
        this.defaults = defaults;
    }

    /**
     * The check of results whose type is known only when they arrive, for the named breaker, or
     * {@code null} when it records no result: for integrations that run any code through a breaker
     * (Spring Cloud CircuitBreaker's {@code run(supplier)}), where no method's return type can be
     * checked at start-up. {@code http-status} counts a result of any of the kinds it knows (an
     * {@code HttpStatusCode}, or a class with a public {@code getStatusCode()} returning one) and
     * takes any other result as a success; a {@code predicate} is asked only about results of its
     * {@link ResultPredicate#resultType()}, the others are successes.
     */
    public @Nullable ResultPredicate forAnyResult(String breaker) {
        Rule rule = of(breaker);
        return rule == null ? null : rule.forAnyResult();
    }

    /** The rule of the named breaker, or {@code null} when it records no result. */
    @Nullable
    Rule of(String breaker) {
        Rule own = instances.get(breaker);
        Rule rule = own != null ? own : defaults;
        return rule == null || rule instanceof Nothing ? null : rule;
    }

    /**
     * The built-in rule: a result carrying one of {@code written}'s HTTP status codes is a failure. An
     * empty list records nothing (a breaker turns off a rule it would inherit from the defaults).
     *
     * @param property the property the list was written in, for messages
     * @throws InvalidBreakerPropertyException for the first element that is neither a status code nor a
     *                                         range of them, or when Spring Web is not on the class path
     */
    public static Rule httpStatus(String property, List<?> written) {
        boolean[] failing = new boolean[HttpStatusRule.CODES];
        for (int i = 0; i < written.size(); i++) {
            String element =
                    written.get(i) == null ? "" : written.get(i).toString().trim();
            String path = property + "[" + i + "]";
            Matcher matcher = CODE_OR_RANGE.matcher(element);
            if (!matcher.matches()) {
                throw new InvalidBreakerPropertyException(
                        path, element, "neither a status code nor a range of them", HTTP_STATUS_ALLOWED, null);
            }
            int low = code(matcher.group(1), path, element);
            int high = matcher.group(2) == null ? low : code(matcher.group(2), path, element);
            if (high < low) {
                throw new InvalidBreakerPropertyException(
                        path, element, "the range ends before it starts", HTTP_STATUS_ALLOWED, null);
            }
            for (int code = low; code <= high; code++) {
                failing[code] = true;
            }
        }
        if (written.isEmpty()) {
            return new Nothing(property);
        }
        if (!ClassUtils.isPresent(HTTP_STATUS_CODE, RecordedResults.class.getClassLoader())) {
            throw new InvalidBreakerPropertyException(
                    property,
                    String.join(",", written.stream().map(String::valueOf).toList()),
                    "Spring Web (" + HTTP_STATUS_CODE + ") is not on the class path",
                    "used with Spring Web on the class path; without it, name a ResultPredicate bean in "
                            + property.substring(0, property.lastIndexOf('.')) + ".predicate",
                    null);
        }
        return new HttpStatusRule(property, failing);
    }

    /**
     * The rule of a {@link ResultPredicate} bean of the application's.
     *
     * @throws InvalidBreakerPropertyException when {@code beanName} names no bean, or one that is not a ResultPredicate
     */
    public static Rule predicate(String property, String beanName, ListableBeanFactory beans) {
        String name = beanName.trim();
        List<String> candidates = List.of(beans.getBeanNamesForType(ResultPredicate.class, true, false));
        String allowed = "the name of a bean that implements " + ResultPredicate.class.getName()
                + (candidates.isEmpty()
                        ? " (the application has none)"
                        : " (the application has: " + String.join(", ", candidates) + ")");
        if (name.isEmpty() || !beans.containsBean(name)) {
            throw new InvalidBreakerPropertyException(property, name, "no such bean", allowed, null);
        }
        if (!beans.isTypeMatch(name, ResultPredicate.class)) {
            throw new InvalidBreakerPropertyException(
                    property, name, "the bean does not implement " + ResultPredicate.class.getName(), allowed, null);
        }
        return new PredicateRule(property, name, beans);
    }

    private static int code(String digits, String path, String element) {
        int code = digits.length() > 3 ? Integer.MAX_VALUE : Integer.parseInt(digits);
        if (code < 100 || code >= HttpStatusRule.CODES) {
            throw new InvalidBreakerPropertyException(
                    path, element, "not an HTTP status code (100 to 599)", HTTP_STATUS_ALLOWED, null);
        }
        return code;
    }

    /** One breaker's rule: which results count as failures. */
    public abstract static class Rule {

        /** The property the rule was written in. */
        final String property;

        Rule(String property) {
            this.property = property;
        }

        /**
         * The check of one method's results ({@code resultType}: what it returns, or what its Mono, Flux
         * or CompletionStage carries).
         *
         * @throws InvalidCircuitProtectedException when the method's results cannot fit the rule
         */
        abstract ResultPredicate forMethod(String breaker, Class<?> targetClass, Method method, Class<?> resultType);

        /** The check of results of any type, for calls whose type is known only at run time. */
        abstract ResultPredicate forAnyResult();

        /** The start-up failure of a method whose result type does not fit this rule. */
        final InvalidCircuitProtectedException unfit(
                String breaker, Class<?> targetClass, Method method, String problem, String remedy) {
            return new InvalidCircuitProtectedException(
                    targetClass.getName(),
                    FallbackResolver.describe(method),
                    "the breaker '" + breaker + "' checks results (" + property + "), " + problem,
                    List.of(),
                    remedy);
        }
    }

    /** An empty list of status codes: the breaker records no result. */
    private static final class Nothing extends Rule {

        Nothing(String property) {
            super(property);
        }

        @Override
        ResultPredicate forMethod(String breaker, Class<?> targetClass, Method method, Class<?> resultType) {
            throw new IllegalStateException("a breaker that records no result has no check");
        }

        @Override
        ResultPredicate forAnyResult() {
            throw new IllegalStateException("a breaker that records no result has no check");
        }
    }

    /** A {@link ResultPredicate} bean, fetched when the first method of its breakers is resolved. */
    private static final class PredicateRule extends Rule {

        private final String beanName;
        private final ListableBeanFactory beans;

        PredicateRule(String property, String beanName, ListableBeanFactory beans) {
            super(property);
            this.beanName = beanName;
            this.beans = beans;
        }

        @Override
        ResultPredicate forMethod(String breaker, Class<?> targetClass, Method method, Class<?> resultType) {
            ResultPredicate predicate = beans.getBean(beanName, ResultPredicate.class);
            Class<?> accepted = predicate.resultType();
            if (resultType == void.class || !ClassUtils.isAssignable(accepted, resultType)) {
                throw unfit(
                        breaker,
                        targetClass,
                        method,
                        "but the method's result type " + resultType.getName() + " does not fit the bean '" + beanName
                                + "', which takes " + accepted.getName(),
                        "Return " + accepted.getName() + " or a subtype of it (for Mono, Flux and"
                                + " CompletionStage: as the element type), or protect this method with a breaker that"
                                + " checks no result or checks it with a predicate that takes it.");
            }
            return predicate;
        }

        @Override
        ResultPredicate forAnyResult() {
            ResultPredicate predicate = beans.getBean(beanName, ResultPredicate.class);
            Class<?> accepted = predicate.resultType();
            return accepted == Object.class
                    ? predicate
                    : result -> accepted.isInstance(result) && predicate.isFailure(result);
        }
    }
}
