package io.breaker.sample.errors;

import java.io.PrintWriter;

/** Writes an RFC 9457 problem as the bookshop's controllers do, for code that runs outside Spring MVC. */
final class Problems {

    static final String CONTENT_TYPE = "application/problem+json";

    /** Longer messages are cut: a message may quote the request, which a client chooses. */
    private static final int MAX_DETAIL = 300;

    private Problems() {}

    /** The problem's JSON: {@code type}, {@code title}, {@code status} and {@code detail}. */
    static String json(int status, String title, String detail) {
        String cut = detail.length() > MAX_DETAIL ? detail.substring(0, MAX_DETAIL) + "..." : detail;
        return "{\"type\":\"about:blank\",\"title\":" + quoted(title) + ",\"status\":" + status + ",\"detail\":"
                + quoted(cut) + "}";
    }

    static void write(PrintWriter writer, int status, String title, String detail) {
        writer.write(json(status, title, detail));
        writer.flush();
    }

    private static String quoted(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
