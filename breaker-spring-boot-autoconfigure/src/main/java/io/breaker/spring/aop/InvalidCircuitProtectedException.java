package io.breaker.spring.aop;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * A {@code @CircuitProtected} method cannot be served as declared: its fallback does not exist, does
 * not fit, or the method cannot be proxied. Raised at start-up, when the bean is created.
 */
public class InvalidCircuitProtectedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String beanClass;
    private final String method;
    private final String problem;
    private final List<String> acceptedSignatures;
    private final @Nullable String remedy;

    /**
     * @param beanClass          the bean's class name
     * @param method             the protected method, as {@code name(ParamType, ...)}
     * @param problem            what is wrong
     * @param acceptedSignatures fallback signatures that would be accepted (empty when not about a fallback)
     */
    public InvalidCircuitProtectedException(
            String beanClass, String method, String problem, List<String> acceptedSignatures) {
        this(beanClass, method, problem, acceptedSignatures, null);
    }

    /**
     * @param remedy what to do, when it is neither "declare a fitting fallback" nor obvious from the
     *               problem; {@code null} otherwise
     */
    public InvalidCircuitProtectedException(
            String beanClass, String method, String problem, List<String> acceptedSignatures, @Nullable String remedy) {
        super("@CircuitProtected on " + beanClass + "." + method + ": " + problem
                + (acceptedSignatures.isEmpty()
                        ? ""
                        : ". Accepted fallback signatures: " + String.join(" or ", acceptedSignatures)));
        this.beanClass = beanClass;
        this.method = method;
        this.problem = problem;
        this.acceptedSignatures = List.copyOf(acceptedSignatures);
        this.remedy = remedy;
    }

    /** The bean's class name. */
    public String getBeanClass() {
        return beanClass;
    }

    /** The protected method, as {@code name(ParamType, ...)}. */
    public String getMethod() {
        return method;
    }

    /** What is wrong. */
    public String getProblem() {
        return problem;
    }

    /** What to do about it, or {@code null} when the accepted signatures or the problem say it. */
    public @Nullable String getRemedy() {
        return remedy;
    }

    /** Fallback signatures that would be accepted; empty when the problem is not about the fallback. */
    public List<String> getAcceptedSignatures() {
        return acceptedSignatures;
    }
}
