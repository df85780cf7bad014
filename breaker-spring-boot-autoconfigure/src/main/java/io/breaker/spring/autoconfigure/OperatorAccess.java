package io.breaker.spring.autoconfigure;

import io.breaker.spring.actuate.BreakersEndpoint;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;

/** What {@code management.endpoint.breakers.access} allows the operators' routes, on either web stack. */
final class OperatorAccess {

    private OperatorAccess() {}

    /** Whether writes are allowed ({@code false}: read-only, a write is a 405). */
    static boolean writable(ObjectProvider<EndpointAccessResolver> access) {
        EndpointAccessResolver resolver = access.getIfAvailable();
        return resolver == null || resolver.accessFor(BreakersEndpoint.ID, Access.UNRESTRICTED) == Access.UNRESTRICTED;
    }
}
