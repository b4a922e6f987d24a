package org.donordata.adapters.http.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** One HTTP/1.1 connection written byte by byte, for what a well-behaved client cannot send. */
public final class RawHttpClient implements AutoCloseable {

    public record Response(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final Socket socket;
    private final InputStream in;

    public RawHttpClient(int port) throws IOException {
        this(port, null);
    }

    /**
     * A connection from {@code localAddress}, another loopback address (127.0.0.2, say: Linux routes all of 127/8 to
     * the loopback interface), so that the server sees another client; from 127.0.0.1 when null.
     */
    public RawHttpClient(int port, String localAddress) throws IOException {
        socket = localAddress == null ? new Socket("127.0.0.1", port)
                : new Socket(InetAddress.getByName("127.0.0.1"), port, InetAddress.getByName(localAddress), 0);
        socket.setSoTimeout(5_000);
        in = socket.getInputStream();
    }

    /** The client's port: the server logs it with the connection's id. */
    public int localPort() {
        return socket.getLocalPort();
    }

    /** How long a read waits (5 s unless set). */
    public RawHttpClient timeout(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        return this;
    }

    public RawHttpClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttpClient send(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
        return this;
    }

    public Response read() throws IOException {
        return read(false);
    }

    /** A response; after a HEAD request it has no body, whatever its Content-Length says. */
    public Response read(boolean head) throws IOException {
        return parse(readHead(), head);
    }

    private Response parse(String text, boolean head) throws IOException {
        String[] lines = text.split("\r\n");
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        int length = head ? 0 : Integer.parseInt(headers.getOrDefault("content-length", "0"));
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Response(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    /** One response as the text it came in (for looking into, not for parsing): head and body. */
    public String readRaw() throws IOException {
        String head = readHead();
        Response parsed = parse(head, false);
        return head + parsed.body();
    }

    /** Whether the server closed the connection (rather than waiting for another request). */
    public boolean closedByServer() throws IOException {
        try {
            return in.read() == -1;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b == -1) {
                throw new UncheckedIOException(new IOException("connection closed after: " + head));
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
