package io.breaker.spring.aop;

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

    /**
     * @param beanClass          the bean's class name
     * @param method             the protected method, as {@code name(ParamType, ...)}
     * @param problem            what is wrong
     * @param acceptedSignatures fallback signatures that would be accepted (empty when not about a fallback)
     */
    public InvalidCircuitProtectedException(String beanClass, String method, String problem,
                                            List<String> acceptedSignatures) {
        super("@CircuitProtected on " + beanClass + "." + method + ": " + problem
                + (acceptedSignatures.isEmpty() ? "" : ". Accepted fallback signatures: "
                + String.join(" or ", acceptedSignatures)));
        this.beanClass = beanClass;
        this.method = method;
        this.problem = problem;
        this.acceptedSignatures = List.copyOf(acceptedSignatures);
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

    /** Fallback signatures that would be accepted; empty when the problem is not about the fallback. */
    public List<String> getAcceptedSignatures() {
        return acceptedSignatures;
    }
}
