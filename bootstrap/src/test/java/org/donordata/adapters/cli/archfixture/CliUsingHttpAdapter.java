package org.donordata.adapters.cli.archfixture;

import io.helidon.http.Status;
import org.donordata.adapters.http.HttpApi;

/** Deliberately breaks the rules: the command-line adapter calling the HTTP adapter instead of the use cases. */
public class CliUsingHttpAdapter {
    HttpApi api;
    Status status;
}
