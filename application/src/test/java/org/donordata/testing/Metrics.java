package org.donordata.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The one way a test reads the service's metrics: the Prometheus text the admin socket serves (docs/api.md, "Operating
 * endpoints, the reference page, and the linters"), read line by line into samples. A sample is picked by its name and
 * by labels written as in a Prometheus selector, {@code reason="wrong_key"}: each must be among the sample's labels,
 * whatever others it has. In the application's test jar, so every module's tests share it.
 */
public final class Metrics {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private Metrics() {
    }

    /** One line of the text: a series' name, its labels (in the order written) and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {

        /** Whether every one of these labels ({@code name="value"}) is among this sample's. */
        public boolean has(String... labels) {
            for (String label : labels) {
                int equals = label.indexOf('=');
                if (equals < 1 || label.length() < equals + 3 || label.charAt(equals + 1) != '"'
                        || !label.endsWith("\"")) {
                    throw new IllegalArgumentException("a label is written name=\"value\": " + label);
                }
                String value = unescape(label.substring(equals + 2, label.length() - 1));
                if (!value.equals(this.labels.get(label.substring(0, equals)))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** The text the admin socket on this port serves at {@code /observe/metrics}. */
    public static String scrape(int adminPort) throws IOException, InterruptedException {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + adminPort + "/observe/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("/observe/metrics answered " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    /** Every sample of the series named {@code name} (exactly: {@code x_total} is not {@code x}), in order. */
    public static List<Sample> samples(String text, String name) {
        List<Sample> found = new ArrayList<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith(name) && line.length() > name.length()
                    && (line.charAt(name.length()) == '{' || line.charAt(name.length()) == ' ')) {
                found.add(parse(line, name));
            }
        }
        return found;
    }

    /** The value of the first sample of {@code name} that has all these labels, if there is one. */
    public static OptionalDouble find(String text, String name, String... labels) {
        return samples(text, name).stream().filter(sample -> sample.has(labels)).mapToDouble(Sample::value)
                .findFirst();
    }

    /** The value of the first sample of {@code name} that has all these labels; fails, showing the text, if none. */
    public static double sample(String text, String name, String... labels) {
        OptionalDouble value = find(text, name, labels);
        if (value.isEmpty()) {
            throw new AssertionError("no sample " + name + " with " + List.of(labels) + " in\n" + text);
        }
        return value.getAsDouble();
    }

    private static Sample parse(String line, String name) {
        Map<String, String> labels = new LinkedHashMap<>();
        int at = name.length();
        if (line.charAt(at) == '{') {
            at++;
            while (line.charAt(at) != '}') {
                int equals = line.indexOf("=\"", at);
                String label = line.substring(at, equals);
                StringBuilder value = new StringBuilder();
                at = equals + 2;
                // A value may hold any character, a brace or a comma too; only an unescaped quote ends it.
                while (line.charAt(at) != '"') {
                    if (line.charAt(at) == '\\') {
                        at++;
                        value.append(line.charAt(at) == 'n' ? '\n' : line.charAt(at));
                    } else {
                        value.append(line.charAt(at));
                    }
                    at++;
                }
                labels.put(label, value.toString());
                at++;
                if (line.charAt(at) == ',') {
                    at++;
                }
            }
            at++;
        }
        // After the value, the text format allows a timestamp.
        String value = line.substring(at).strip().split(" ")[0];
        return new Sample(name, labels, switch (value) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(value);
        });
    }

    /** A label's value as written in the text ({@code \\}, {@code \"} and {@code \n} escaped) as it is. */
    private static String unescape(String written) {
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < written.length(); i++) {
            char next = written.charAt(i);
            if (next == '\\' && i + 1 < written.length()) {
                i++;
                next = written.charAt(i) == 'n' ? '\n' : written.charAt(i);
            }
            value.append(next);
        }
        return value.toString();
    }
}
