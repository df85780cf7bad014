package io.breaker.sample.books;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * The answer of {@code GET /books/{isbn}/delivery-time}.
 *
 * @param isbn     the book, as ISBN-13
 * @param days     working days until delivery, or {@code null} when the wholesaler could not tell
 * @param note     for the customer, when {@code days} is {@code null}; left out of the JSON otherwise
 * @param servedBy how it was served; sent as the {@code X-Served-By} header, not in the body
 */
public record DeliveryTime(
        String isbn,
        @Nullable Integer days,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String note,
        @JsonIgnore ServedBy servedBy) {

    static final String LATER_NOTE =
            "The wholesaler cannot tell us right now; " + "we will email you the delivery time as soon as it does.";

    static DeliveryTime live(Isbn isbn, int days) {
        return new DeliveryTime(isbn.digits(), days, null, ServedBy.LIVE);
    }

    static DeliveryTime later(Isbn isbn, ServedBy servedBy) {
        return new DeliveryTime(isbn.digits(), null, LATER_NOTE, servedBy);
    }
}
