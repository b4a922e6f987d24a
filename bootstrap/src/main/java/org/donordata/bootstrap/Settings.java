package org.donordata.bootstrap;

import java.util.Map;
import java.util.Optional;

/** The service's configuration, read from environment variables (README: "Configuration"). */
record Settings(String host, int port, String dbUrl, String dbUser, String dbPassword, Optional<String> apiKey) {

    static final String DEFAULT_HOST = "127.0.0.1";
    static final int DEFAULT_PORT = 8080;
    static final String DEFAULT_DB_URL = "jdbc:sqlite:data/donors.db";

    static Settings fromEnvironment(Map<String, String> env) {
        return new Settings(
                text(env, "DONORS_HOST").orElse(DEFAULT_HOST),
                text(env, "DONORS_PORT").map(Settings::port).orElse(DEFAULT_PORT),
                text(env, "DONORS_DB_URL").orElse(DEFAULT_DB_URL),
                text(env, "DONORS_DB_USER").orElse(null),
                text(env, "DONORS_DB_PASSWORD").orElse(null),
                text(env, "DONORS_API_KEY"));
    }

    private static Optional<String> text(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).filter(value -> !value.isBlank());
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text.strip());
            if (port >= 0 && port <= 65_535) {
                return port;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new IllegalArgumentException("DONORS_PORT must be a port number from 0 to 65535 (0 picks a free one), got '"
                + text + "'");
    }

    /** Never shows the password or the key. */
    @Override
    public String toString() {
        return "Settings[host=" + host + ", port=" + port + ", dbUrl=" + dbUrl + ", dbUser=" + dbUser
                + ", dbPassword=" + (dbPassword == null ? "unset" : "set") + ", apiKey=" + (apiKey.isPresent() ? "set" : "unset") + "]";
    }
}
