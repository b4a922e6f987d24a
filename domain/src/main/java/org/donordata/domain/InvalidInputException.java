package org.donordata.domain;

import java.util.List;
import java.util.stream.Collectors;

/** Input that breaks the rules; carries every problem found, not just the first. */
public final class InvalidInputException extends DomainException {

    /** Beyond this many problems the message summarises the rest, so hostile input cannot inflate it. */
    static final int MAX_LISTED_PROBLEMS = 20;

    private final List<Problem> problems;

    public InvalidInputException(List<Problem> problems) {
        super(describe(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid input needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }

    private static String describe(List<Problem> problems) {
        String listed = problems.stream()
                .limit(MAX_LISTED_PROBLEMS)
                .map(Problem::toString)
                .collect(Collectors.joining("; "));
        int unlisted = problems.size() - MAX_LISTED_PROBLEMS;
        return unlisted > 0
                ? listed + "; and " + unlisted + " more problem" + (unlisted == 1 ? "" : "s") + "."
                : listed + ".";
    }
}
