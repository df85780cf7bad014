package io.breaker.sample.wholesaler;

import io.breaker.sample.books.Isbn;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import java.net.http.HttpClient;

/**
 * Asks the wholesaler for a delivery time over HTTP, with its own connect and read timeouts, and
 * sorts every outcome into one of three: a number of days, {@link UnknownBookException} (a business
 * answer), or {@link WholesalerUnavailableException} (the wholesaler is unhealthy). The breaker's
 * configuration then counts the last kind only.
 */
@Component
public class WholesalerClient {

    private final RestClient restClient;

    public WholesalerClient(RestClient.Builder builder, WholesalerProperties properties) {
        HttpClient httpClient = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(properties.connectTimeout())
                .build();
        JdkClientHttpRequestFactory requestFactory = new JdkClientHttpRequestFactory(httpClient);
        requestFactory.setReadTimeout(properties.readTimeout());
        this.restClient =
                builder.baseUrl(properties.url()).requestFactory(requestFactory).build();
    }

    /**
     * The wholesaler's delivery time for the book, in days.
     *
     * @throws UnknownBookException           the wholesaler answered 404
     * @throws WholesalerUnavailableException timeout, connection error, 5xx or 429
     */
    public int deliveryDays(Isbn isbn) {
        try {
            return restClient.get().uri("/books/{isbn}/delivery", isbn.digits()).exchange((request, response) -> {
                HttpStatusCode status = response.getStatusCode();
                if (status.is2xxSuccessful()) {
                    WholesalerAnswer answer = response.bodyTo(WholesalerAnswer.class);
                    if (answer == null || answer.days() == null) {
                        throw new IllegalStateException("The wholesaler answered " + status + " without days");
                    }
                    return answer.days();
                }
                if (status.value() == HttpStatus.NOT_FOUND.value()) {
                    throw new UnknownBookException(isbn);
                }
                if (status.is5xxServerError() || status.value() == HttpStatus.TOO_MANY_REQUESTS.value()) {
                    throw new WholesalerUnavailableException("The wholesaler answered " + status.value(), null);
                }
                // Any other 4xx means our request is wrong: a bug of ours, not the wholesaler's outage.
                throw new IllegalStateException("The wholesaler rejected our request with " + status.value());
            });
        } catch (ResourceAccessException e) {
            // Connect timeout, read timeout, refused or reset connection.
            throw new WholesalerUnavailableException("The wholesaler did not answer: " + e.getMostSpecificCause(), e);
        }
    }

    /** The wholesaler's answer body. */
    record WholesalerAnswer(@Nullable String isbn, @Nullable Integer days) {}
}
