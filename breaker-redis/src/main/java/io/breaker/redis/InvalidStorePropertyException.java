package io.breaker.redis;

import io.breaker.spring.config.InvalidBreakerPropertyException;

/**
 * A {@code breakers.store.*} property with a value the store cannot use; stops start-up, explained by
 * the starter's failure analyzer like every other bad breaker property.
 */
public class InvalidStorePropertyException extends InvalidBreakerPropertyException {

    private static final long serialVersionUID = 1L;

    public InvalidStorePropertyException(String property, String value, String allowed) {
        super(property, value, "", allowed, null);
    }
}
