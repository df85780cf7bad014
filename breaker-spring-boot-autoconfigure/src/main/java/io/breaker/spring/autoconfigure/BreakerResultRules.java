package io.breaker.spring.autoconfigure;

import io.breaker.spring.BreakerNames;
import io.breaker.spring.aop.RecordedResults;
import io.breaker.spring.config.InvalidBreakerPropertyException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads {@code record-result} of {@code breakers.defaults} and of each instance into
 * {@link RecordedResults}, checking each section as it goes: a bad status code or range, an unknown
 * bean, or both kinds of rule in one section stops start-up naming the property.
 */
final class BreakerResultRules {

    private static final String DEFAULTS = "breakers.defaults.record-result";

    private BreakerResultRules() {}

    static RecordedResults of(BreakerProperties properties, ListableBeanFactory beans) {
        RecordedResults.Rule defaults = rule(DEFAULTS, properties.getDefaults().getRecordResult(), beans);
        Map<String, RecordedResults.Rule> instances = new LinkedHashMap<>();
        properties.getInstances().forEach((name, settings) -> {
            RecordedResults.Rule rule = rule(
                    "breakers.instances." + BreakerNames.propertyKey(name) + ".record-result",
                    settings.getRecordResult(),
                    beans);
            if (rule != null) {
                instances.put(name, rule);
            }
        });
        return defaults == null && instances.isEmpty()
                ? RecordedResults.NONE
                : new RecordedResults(instances, defaults);
    }

    private static RecordedResults.@Nullable Rule rule(
            String property, BreakerProperties.RecordResult written, ListableBeanFactory beans) {
        if (!written.isSet()) {
            return null;
        }
        if (written.getHttpStatus() != null && written.getPredicate() != null) {
            throw new InvalidBreakerPropertyException(
                    property,
                    "http-status and predicate",
                    "both are set",
                    "one of http-status (a list of HTTP status codes and ranges) or predicate (a bean name)",
                    null);
        }
        return written.getHttpStatus() != null
                ? RecordedResults.httpStatus(property + ".http-status", written.getHttpStatus())
                : RecordedResults.predicate(property + ".predicate", written.getPredicate(), beans);
    }
}
