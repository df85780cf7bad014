package io.breaker.spring.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * {@code breakers}: see every breaker, and force one OPEN or CLOSED or release it during an
 * incident. Exposed over HTTP ({@code /actuator/breakers}, where {@link BreakersWebEndpointExtension}
 * adds the 404 and 400 answers) and over JMX ({@code org.springframework.boot:type=Endpoint,name=Breakers}).
 * The logic lives in {@link BreakerOperations}; this class only maps it.
 */
@Endpoint(id = "breakers")
public class BreakersEndpoint {

    /** The endpoint's id, which also names it in access rules ({@code EndpointRequest.to("breakers")}). */
    public static final EndpointId ID = EndpointId.of("breakers");

    private final BreakerOperations operations;

    public BreakersEndpoint(BreakerOperations operations) {
        this.operations = operations;
    }

    /** Every breaker, sorted by name. */
    @ReadOperation
    public BreakersDescriptor breakers() {
        return operations.describeAll();
    }

    /** One breaker, or {@code null} when there is none of that name. */
    @ReadOperation
    public @Nullable BreakerDescriptor breaker(@Selector String name) {
        return operations.describe(name).orElse(null);
    }

    /**
     * Forces the breaker OPEN or CLOSED, or releases it ({@code AUTO}); {@code null} for an unknown
     * breaker.
     *
     * @throws InvalidEndpointRequestException for a missing or unknown state (no change is made)
     */
    @WriteOperation
    // Spring's @Nullable too: Boot 3.5's actuator takes a parameter as optional only when it carries
    // Spring's annotation, not JSpecify's, and would refuse a missing state before this method explains it.
    public @Nullable StateChangeDescriptor changeState(
            @Selector String name, @org.springframework.lang.Nullable @Nullable String state) {
        BreakerOperations.ChangeResult result = operations.change(name, state, null);
        if (result instanceof BreakerOperations.ChangeResult.Applied applied) {
            return applied.change();
        }
        ErrorDescriptor error = ((BreakerOperations.ChangeResult.Refused) result).error();
        if (error.status() == 404) {
            return null;
        }
        throw new InvalidEndpointRequestException(error.message(), error.message());
    }
}
