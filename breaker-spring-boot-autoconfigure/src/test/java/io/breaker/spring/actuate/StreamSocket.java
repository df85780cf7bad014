package io.breaker.spring.actuate;

import io.breaker.spring.test.TestUsers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A client of the breakers stream over a plain socket, so that a test chooses the address it comes from
 * (any of 127.0.0.0/8 reaches a server on localhost) and whether it reads anything after the headers.
 */
final class StreamSocket implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();

    private StreamSocket(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        String statusLine = line();
        this.status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String header = line(); !header.isEmpty(); header = line()) {
            int colon = header.indexOf(':');
            headers.put(
                    header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    header.substring(colon + 1).trim());
        }
    }

    /**
     * Asks for the stream at {@code path} from {@code from} (an address of 127.0.0.0/8), as {@code user}
     * ({@code null}: anonymous), and reads the status line and the headers.
     */
    static StreamSocket open(int port, String path, String from, String user) throws IOException {
        Socket socket = new Socket();
        socket.setSoTimeout(30_000);
        socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        String request = "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                + (user == null ? "" : TestUsers.HEADER + ": " + user + "\r\n") + "\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return new StreamSocket(socket);
    }

    /** The body of an answer with a length or in chunks (not a stream that goes on). */
    String body() throws IOException {
        String length = headers.get("content-length");
        if (length != null) {
            return new String(in.readNBytes(Integer.parseInt(length)), StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(line().trim(), 16); size > 0; size = Integer.parseInt(line().trim(), 16)) {
            body.write(in.readNBytes(size));
            line();
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    /**
     * The stream's text from here to its end (the server closes the chunked body), read as it comes;
     * chunk sizes are left out.
     */
    String rest() throws IOException {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        boolean chunked = "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
        if (!chunked) {
            in.transferTo(text);
            return text.toString(StandardCharsets.UTF_8);
        }
        while (true) {
            String sizeLine = line();
            if (sizeLine == null) {
                break;
            }
            int size = Integer.parseInt(sizeLine.trim(), 16);
            if (size == 0) {
                break;
            }
            text.write(in.readNBytes(size));
            line();
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    /** One line of the raw answer, without its CRLF; {@code null} at the end of the connection. */
    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                break;
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        if (b == -1 && line.size() == 0) {
            return null;
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
