package io.breaker.dynamodb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP relay between one client and a server on this machine that can hold what the client sends:
 * while held, the client's requests wait in the relay (the server's answers still pass), and once
 * passed they reach the server in the order they were sent. So a request can be made late: its
 * sender stops waiting for it, and the server runs it after requests other clients made meanwhile.
 */
final class HeldRelay implements AutoCloseable {

    private final int target;
    private final ServerSocket listening;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final ExecutorService pumps = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "held-relay");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean held;
    private volatile boolean closed;

    /** A relay to {@code targetPort} on the loopback address, listening on a port of its own. */
    HeldRelay(int targetPort) throws IOException {
        this.target = targetPort;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        pumps.submit(this::accept);
    }

    int port() {
        return listening.getLocalPort();
    }

    /** From now on, what the client sends waits in the relay. */
    void hold() {
        held = true;
    }

    /** What waits, and whatever follows, goes on to the server. */
    void pass() {
        held = false;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listening.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                pumps.submit(() -> pump(client, server, true));
                pumps.submit(() -> pump(server, client, false));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, boolean holdable) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream()) {
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                while (holdable && held && !closed) {
                    Thread.sleep(5);
                }
                out.write(buffer, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            // one side closed: so is the other
            close(from);
            close(to);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listening.close();
        } catch (IOException e) {
            // closing anyway
        }
        sockets.forEach(HeldRelay::close);
        pumps.shutdownNow();
    }
}
