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
     * The object built by concatenating text: each member's key and the JSON text {@code jsonText} makes of its value,
     * for a database whose own JSON object function writes more than the API does (spaces after every colon and
     * comma).
     */
    public static Field<String> concatenated(List<DocumentMember> members,
            Function<DocumentMember, Field<String>> jsonText) {
        List<Field<?>> pieces = new ArrayList<>();
        for (DocumentMember member : members) {
            pieces.add(DSL.inline((pieces.isEmpty() ? "{" : ",") + '"' + member.key() + "\":"));
            pieces.add(member.kind() == DonorField.Kind.ID ? member.column() : jsonText.apply(member));
        }
        pieces.add(DSL.inline("}"));
        return DSL.concat(pieces.toArray(Field<?>[]::new));
    }
}
