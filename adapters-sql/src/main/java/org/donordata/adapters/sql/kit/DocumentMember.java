package org.donordata.adapters.sql.kit;

import org.donordata.domain.DonorField;
import org.jooq.Field;

/**
 * One member of a donor's JSON object as the database renders it (DatabaseKind.document): the key, the kind of value
 * (a number, a string, a flag or an instant, as DonorField says) and the column that holds it.
 */
public record DocumentMember(String key, DonorField.Kind kind, Field<?> column) {
}
