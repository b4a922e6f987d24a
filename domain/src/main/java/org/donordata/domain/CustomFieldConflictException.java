package org.donordata.domain;

/**
 * A definition the application's other fields, or its donors' values, leave no room for (docs/api.md, "Custom
 * fields"): a key already taken, a hundred fields already, a choice some donor holds taken out (or, in a field of type
 * 'choices', moved). Nothing is stored.
 */
public final class CustomFieldConflictException extends DomainException {

    public CustomFieldConflictException(String message) {
        super(message);
    }

    public static CustomFieldConflictException keyTaken(String key) {
        return new CustomFieldConflictException("key '" + key + "' is taken by another field of this application.");
    }

    public static CustomFieldConflictException full() {
        return new CustomFieldConflictException("An application has at most " + CustomField.MAX_PER_APPLICATION
                + " custom fields: remove one to define another.");
    }

    public static CustomFieldConflictException choiceHeld(String key, String choice) {
        return new CustomFieldConflictException("choice " + Texts.quoteForMessage(choice) + " of " + key
                + " is held by donors and cannot be taken out, nor moved among the choices of a field of type"
                + " 'choices'; change their values first.");
    }
}
