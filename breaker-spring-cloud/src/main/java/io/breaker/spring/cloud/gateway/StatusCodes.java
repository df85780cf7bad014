package io.breaker.spring.cloud.gateway;

import org.springframework.http.HttpStatus;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code statusCodes} of a Gateway route's breaker: the backend statuses that count as failures, each
 * a number ({@code 500}) or the name of a status ({@code INTERNAL_SERVER_ERROR}, case ignored). Anything
 * else stops the route from being built, instead of being left out silently.
 */
final class StatusCodes {

    private StatusCodes() {}

    /**
     * The status codes {@code values} stand for.
     *
     * @param route names the route in the error message
     * @throws IllegalArgumentException for a value that names no HTTP status
     */
    static Set<Integer> parse(Collection<?> values, String route) {
        Set<Integer> codes = new LinkedHashSet<>();
        for (Object value : values) {
            codes.add(parse(value, route));
        }
        return Set.copyOf(codes);
    }

    private static int parse(Object value, String route) {
        String text = value == null ? "" : value.toString().trim();
        if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
            HttpStatus status = text.length() > 3 ? null : HttpStatus.resolve(Integer.parseInt(text));
            if (status != null) {
                return status.value();
            }
        } else if (!text.isEmpty()) {
            try {
                return HttpStatus.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'))
                        .value();
            } catch (IllegalArgumentException notAName) {
                // explained below
            }
        }
        throw new IllegalArgumentException(route + ": statusCodes entry '" + value
                + "' is no HTTP status; give a status code such as 500 or a status name such as"
                + " INTERNAL_SERVER_ERROR");
    }
}
