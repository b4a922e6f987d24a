package org.donordata.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/** A TCP relay to a local port that can be cut (every connection closed, nothing accepted) and restored. */
final class TcpProxy implements AutoCloseable {

    private final int target;
    private final int port;
    private final List<Socket> open = new ArrayList<>();
    private ServerSocket listener;

    TcpProxy(int target) throws IOException {
        this.target = target;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.port = listener.getLocalPort();
        accept(listener);
    }

    int port() {
        return port;
    }

    private void accept(ServerSocket on) {
        Thread.ofPlatform().daemon().start(() -> {
            while (!on.isClosed()) {
                try {
                    Socket client = on.accept();
                    Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                    synchronized (open) {
                        // A cut between the accept and here closed the listener, then every socket it knew: not these,
                        // which would have relayed on through the cut (a pooled connection answering the readiness
                        // probe, as StorageTroubleTest saw twice).
                        if (on.isClosed()) {
                            client.close();
                            server.close();
                            return;
                        }
                        open.add(client);
                        open.add(server);
                    }
                    pipe(client, server);
                    pipe(server, client);
                } catch (IOException closed) {
                    return;
                }
            }
        });
    }

    private static void pipe(Socket from, Socket to) {
        Thread.ofPlatform().daemon().start(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException cut) {
                // one side closed
            }
        });
    }

    synchronized void cut() throws IOException {
        listener.close();
        synchronized (open) {
            for (Socket socket : open) {
                socket.close();
            }
            open.clear();
        }
    }

    synchronized void restore() throws IOException {
        listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        accept(listener);
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
