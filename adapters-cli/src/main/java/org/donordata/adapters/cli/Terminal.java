package org.donordata.adapters.cli;

import java.io.Console;

/** Whether a person watches: the command's input and output are a terminal, not a pipe, a file or cron. */
public final class Terminal {

    private Terminal() {
    }

    /**
     * The console when there is a terminal. From JDK 22, {@link System#console()} gives a console even when the streams
     * are redirected, and {@code Console.isTerminal()} tells; it is asked by reflection, the build targeting JDK 21.
     */
    public static Console attached() {
        Console console = System.console();
        if (console == null) {
            return null;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console) ? console : null;
        } catch (NoSuchMethodException jdk21) {
            return console;
        } catch (ReflectiveOperationException | RuntimeException unknown) {
            return null;
        }
    }
}
