import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;

/**
 * The benchmark's ceiling: the least a Helidon SE handler can do for the same request. It checks the api-key header
 * and answers with bytes captured from the real service for the same kind of request, so every scenario is compared
 * with an answer of the same size. Usage: java -cp 'bootstrap/target/libs/*' bench/Ceiling.java PORT KEY DIR
 * where DIR holds one file per path: /one answers DIR/one.json, /created answers DIR/created.json with 201, ...
 */
public class Ceiling {

    private static final HeaderName API_KEY = HeaderNames.create("api-key");

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        String key = args[1];
        Map<String, byte[]> answers = new HashMap<>();
        try (var files = Files.list(Path.of(args[2]))) {
            for (Path file : files.toList()) {
                answers.put("/" + file.getFileName().toString().replace(".json", ""), Files.readAllBytes(file));
            }
        }
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .connectionOptions(options -> options.tcpNoDelay(true))
                .routing(routing -> routing.any((req, res) -> {
                    if (!key.equals(req.headers().first(API_KEY).orElse(null))) {
                        res.status(Status.UNAUTHORIZED_401).send();
                        return;
                    }
                    if (req.prologue().method() == Method.POST) {
                        req.content().as(byte[].class);
                    }
                    String path = req.path().path();
                    byte[] answer = answers.get(path);
                    if (answer == null) {
                        res.status(Status.NOT_FOUND_404).send();
                        return;
                    }
                    res.header(HeaderValues.CONTENT_TYPE_JSON);
                    res.status(path.equals("/created") ? Status.CREATED_201 : Status.OK_200).send(answer);
                }))
                .build()
                .start();
        System.out.println("ceiling listening on " + server.port());
    }
}
