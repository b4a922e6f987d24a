package org.donordata.adapters.http;

/**
 * A setting the server cannot be built with, said in the adapter's own words; {@link #setting()} tells the caller,
 * which knows how the operator sets it, which one to name.
 */
public final class HttpSettingsException extends IllegalArgumentException {

    /** The setting at fault. */
    public enum Setting {
        /** Plain HTTP on an address other than loopback, not allowed explicitly. */
        PLAIN_HTTP,
        TLS_CERTIFICATE,
        TLS_KEY
    }

    private final Setting setting;

    HttpSettingsException(Setting setting, String message) {
        super(message);
        this.setting = setting;
    }

    public Setting setting() {
        return setting;
    }
}
