package org.donordata.adapters.cli;

/** The import file cannot be read on from here (its header, its encoding, a line too long); the message says where. */
final class ImportFileException extends Exception {

    ImportFileException(String message) {
        super(message, null, false, false);
    }
}
