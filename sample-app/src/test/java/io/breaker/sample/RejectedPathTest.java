package io.breaker.sample;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paths that the server or Spring Security's firewall refuses before any controller sees them get the
 * same RFC 9457 problem+json, with a message, as an ISBN the bookshop refuses. Sent over a raw socket:
 * an HTTP client would normalise or re-encode these paths before sending them.
 */
class RejectedPathTest extends BookshopHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/books/978%2F0134685991/delivery-time", // an encoded '/'
                "/books/978%5C0134685991/delivery-time", // an encoded '\'
                "/books/978\\0134685991/delivery-time", // a raw '\'
                "/books/978%000134685991/delivery-time", // NUL
                "/books/978%zz/delivery-time", // a malformed escape
                "/books/978%/delivery-time", // a cut escape
                "/books/978%C3/delivery-time", // half a UTF-8 character
                "/books/978;v=1/delivery-time", // a path parameter
                "/books//delivery-time", // an empty segment
                "/books/%2e%2e/delivery-time", // an encoded '..'
                "/books/%2e%2e%2fwholesaler/delivery-time",
                "/books/978%252F0134685991/delivery-time", // double encoding
                "/books/978%0a/delivery-time", // an encoded line feed
                "/actuator/breakers/a%2Fb", // a breaker name with '/'
                "/actuator/breakers/wholesaler;v=1"
            })
    void aPathRefusedBeforeAnyControllerGetsAProblemWithAMessage(String path) throws IOException {
        RawResponse response = rawGet(path);

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.header("content-type")).as(response.toString()).startsWith("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("title").asText()).isEqualTo("Bad Request");
        assertThat(problem.get("detail").asText()).as(response.toString()).contains("path");
    }

    @Test
    void aRequestLineTooLongForTheServerGetsAProblemWithAMessage() throws IOException {
        RawResponse response = rawGet("/books/" + "9".repeat(9_000) + "/delivery-time");

        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.header("content-type")).as(response.toString()).startsWith("application/problem+json");
        assertThat(JSON.readTree(response.body()).get("detail").asText()).isNotBlank();
    }

    @Test
    void anIsbnTheBookshopRefusesKeepsItsOwnProblem() throws IOException {
        RawResponse response = rawGet("/books/97801346859X1/delivery-time");

        assertThat(response.status()).isEqualTo(400);
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.get("title").asText()).isEqualTo("Invalid ISBN");
        assertThat(problem.get("detail").asText()).contains("an ISBN-13 has 13 digits");
    }

    /**
     * An invalid ISBN's problem names the request in {@code instance} with the ISBN cut as its message
     * cuts it (40 characters, then {@code ...}): a client that sends 8 KB of path does not get them back.
     */
    @Test
    void aLongInvalidIsbnIsCutInTheProblemsInstanceAsInItsDetail() throws IOException {
        RawResponse digits = rawGet("/books/" + "9".repeat(8_000) + "/delivery-time");
        // Two bytes a character in UTF-8, escaped: the instance escapes the ones it keeps.
        RawResponse letters = rawGet("/books/" + "%C3%BC".repeat(1_000) + "/delivery-time");

        JsonNode digitsProblem = JSON.readTree(digits.body());
        assertThat(digits.status()).as(digits.toString()).isEqualTo(400);
        assertThat(digitsProblem.get("title").asText()).isEqualTo("Invalid ISBN");
        assertThat(digitsProblem.get("detail").asText()).startsWith("'" + "9".repeat(40) + "...' (8000 characters)");
        assertThat(digitsProblem.get("instance").asText()).isEqualTo("/books/" + "9".repeat(40) + ".../delivery-time");

        JsonNode lettersProblem = JSON.readTree(letters.body());
        assertThat(letters.status()).as(letters.toString()).isEqualTo(400);
        assertThat(lettersProblem.get("detail").asText())
                .startsWith("'" + "\u00fc".repeat(40) + "...' (1000 characters)");
        assertThat(lettersProblem.get("instance").asText())
                .isEqualTo("/books/" + "%C3%BC".repeat(40) + ".../delivery-time");
    }

    @Test
    void aShortInvalidIsbnIsTheWholePathInTheProblemsInstance() throws IOException {
        RawResponse response = rawGet("/books/97801346859X1/delivery-time");

        assertThat(JSON.readTree(response.body()).get("instance").asText())
                .isEqualTo("/books/97801346859X1/delivery-time");
    }

    /** A GET sent byte for byte as written, with {@code Connection: close}, read to the end. */
    private RawResponse rawGet(String path) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            in.transferTo(all);
            return RawResponse.parse(all.toString(StandardCharsets.ISO_8859_1));
        }
    }

    private record RawResponse(int status, String head, String body) {

        /** {@code bytes}: the answer's bytes, one character each (chunk sizes count bytes); the body is UTF-8. */
        static RawResponse parse(String bytes) {
            int end = bytes.indexOf("\r\n\r\n");
            String head = bytes.substring(0, end);
            String body = bytes.substring(end + 4);
            if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) {
                body = unchunked(body);
            }
            return new RawResponse(
                    Integer.parseInt(head.split(" ")[1]),
                    head,
                    new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
        }

        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return "<none>";
        }

        private static String unchunked(String chunked) {
            StringBuilder body = new StringBuilder();
            int at = 0;
            while (true) {
                int lineEnd = chunked.indexOf("\r\n", at);
                int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
                if (size == 0) {
                    return body.toString();
                }
                body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
                at = lineEnd + 2 + size + 2;
            }
        }
    }
}
