package io.breaker.spring.actuate;

/**
 * Where the operators' routes live under the {@code breakers} endpoint's path (base path and path mapping
 * applied, {@code /actuator/breakers} by default), on either web stack: they move with the endpoint, and
 * every access rule that matches it matches them.
 */
final class OperatorPaths {

    private OperatorPaths() {}

    /** {@code {endpointPath}/stream}: server-sent events. */
    static String stream(String endpointPath) {
        return endpointPath + "/stream";
    }

    /** {@code {endpointPath}/{name}/config}: one breaker's settings at runtime. */
    static String config(String endpointPath) {
        return endpointPath + "/{name}/config";
    }

    /** The methods {@link #config} takes ({@code Allow}), with writes or without; HEAD and OPTIONS aside. */
    static String configMethods(boolean writable) {
        return writable ? "GET, POST, DELETE" : "GET";
    }

    /** Whether {@code method} is one {@link #config} answers otherwise than with a 405. */
    static boolean configAnswers(String method) {
        return switch (method) {
            case "GET", "HEAD", "POST", "DELETE", "OPTIONS" -> true;
            default -> false;
        };
    }

    /** {@code {endpointPath}/console}: the console's page; its assets are below it. */
    static String console(String endpointPath) {
        return endpointPath + "/console";
    }

    /** {@code {endpointPath}/{name}}: the endpoint's own write of one breaker's state. */
    static String breaker(String endpointPath) {
        return endpointPath + "/{name}";
    }
}
