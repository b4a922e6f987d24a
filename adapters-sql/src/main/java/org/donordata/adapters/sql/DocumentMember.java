package org.donordata.adapters.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.donordata.domain.DonorField;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * One member of a donor's JSON object as the database renders it (DatabaseKind.document): the key, the kind of value
 * (a number, a string, a flag or an instant, as DonorField says) and the column that holds it.
 */
public record DocumentMember(String key, DonorField.Kind kind, Field<?> column) {

    /**
     * The object built by concatenating text, for a database whose own JSON object function writes more than the API
     * does (spaces after every colon and comma): each member's key, then its value as JSON text. A number is written
     * as it is, a flag as true or false, text by {@code quoted} (a template of {0}, the column, that gives a JSON
     * string or null), an instant by {@code instant}.
     */
    public static Field<String> concatenated(List<DocumentMember> members, String quoted,
            Function<Field<?>, Field<String>> instant) {
        List<Field<?>> pieces = new ArrayList<>();
        for (DocumentMember member : members) {
            pieces.add(DSL.inline((pieces.isEmpty() ? "{" : ",") + '"' + member.key() + "\":"));
            Field<?> column = member.column();
            pieces.add(switch (member.kind()) {
                case ID -> column;
                case FLAG -> DSL.field("case when {0} then 'true' else 'false' end", String.class, column);
                case TIMESTAMP -> instant.apply(column);
                case TYPE, TEXT, EMAIL, COUNTRY -> DSL.field(quoted, String.class, column);
            });
        }
        pieces.add(DSL.inline("}"));
        return DSL.concat(pieces.toArray(Field<?>[]::new));
    }
}
