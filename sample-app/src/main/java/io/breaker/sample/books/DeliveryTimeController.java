package io.breaker.sample.books;

import io.breaker.sample.wholesaler.UnknownBookException;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /books/{isbn}/delivery-time}: 200 with the days (or, from the fallback, with
 * {@code "days": null} and a note), 400 for an invalid ISBN, 404 for a book the wholesaler does not
 * know. Answers that went to the wholesaler or its fallback carry {@code X-Served-By}.
 */
@RestController
public class DeliveryTimeController {

    private final DeliveryTimeService deliveryTimes;

    public DeliveryTimeController(DeliveryTimeService deliveryTimes) {
        this.deliveryTimes = deliveryTimes;
    }

    @GetMapping("/books/{isbn}/delivery-time")
    public ResponseEntity<DeliveryTime> deliveryTime(@PathVariable String isbn) {
        DeliveryTime answer = deliveryTimes.deliveryTime(Isbn.parse(isbn));
        return ResponseEntity.ok()
                .header(ServedBy.HEADER, answer.servedBy().headerValue())
                .body(answer);
    }

    /**
     * The problem names the request in {@code instance} with the ISBN as the message shows it: a long
     * one cut after 40 characters (Spring MVC would otherwise put the whole path there, up to the 8 KB
     * a request line may have).
     */
    @ExceptionHandler(InvalidIsbnException.class)
    ResponseEntity<ProblemDetail> invalidIsbn(InvalidIsbnException e, HttpServletRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
        problem.setTitle("Invalid ISBN");
        problem.setInstance(URI.create(request.getContextPath() + "/books/"
                + UriUtils.encodePathSegment(e.shownInput(), StandardCharsets.UTF_8) + "/delivery-time"));
        return ResponseEntity.badRequest().body(problem);
    }

    /** The wholesaler's 404 is a business answer: passed on, served live, never hidden by a fallback. */
    @ExceptionHandler(UnknownBookException.class)
    ResponseEntity<ProblemDetail> unknownBook(UnknownBookException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
        problem.setTitle("Unknown book");
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
                .header(ServedBy.HEADER, ServedBy.LIVE.headerValue())
                .body(problem);
    }
}
