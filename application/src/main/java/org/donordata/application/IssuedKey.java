package org.donordata.application;

/** A new api key, shown to the operator once and then kept only as its hash. */
public record IssuedKey(Application application, ApiKey key, String secret) {

    @Override
    public String toString() {
        return "IssuedKey[application=" + application + ", key=" + key + ", secret=…]";
    }
}
