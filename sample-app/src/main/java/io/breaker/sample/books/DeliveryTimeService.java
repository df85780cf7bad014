package io.breaker.sample.books;

import io.breaker.CircuitOpenException;
import io.breaker.sample.wholesaler.UnknownBookException;
import io.breaker.sample.wholesaler.WholesalerClient;
import io.breaker.spring.CircuitProtected;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Delivery times, asked of the wholesaler through the {@code wholesaler} breaker.
 *
 * <p>Which outcomes count is set in {@code application.yml}: {@code WholesalerUnavailableException}
 * (timeout, connection error, 5xx, 429) is recorded and answered by the fallback;
 * {@link UnknownBookException} is ignored by the breaker and, being a business answer, passes
 * through unchanged to the caller.
 */
@Service
public class DeliveryTimeService {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryTimeService.class);

    private final WholesalerClient wholesaler;

    public DeliveryTimeService(WholesalerClient wholesaler) {
        this.wholesaler = wholesaler;
    }

    /**
     * The wholesaler's delivery time for the book; when it cannot be asked or fails, an honest
     * "we will email you" answer with no days.
     *
     * @throws UnknownBookException the wholesaler does not know the book
     */
    @CircuitProtected(name = "wholesaler", fallbackMethod = "deliveryTimeLater")
    public DeliveryTime deliveryTime(Isbn isbn) {
        return DeliveryTime.live(isbn, wholesaler.deliveryDays(isbn));
    }

    /** The breaker rejected the call: the wholesaler was not asked. The most specific overload wins. */
    private DeliveryTime deliveryTimeLater(Isbn isbn, CircuitOpenException rejected) {
        return DeliveryTime.later(isbn, ServedBy.FALLBACK_OPEN);
    }

    /** The wholesaler was asked and failed in a way the breaker records. */
    private DeliveryTime deliveryTimeLater(Isbn isbn, Throwable failure) {
        LOG.debug("Delivery time for {} served by the fallback: {}", isbn, failure.toString());
        return DeliveryTime.later(isbn, ServedBy.FALLBACK_FAILED);
    }
}
