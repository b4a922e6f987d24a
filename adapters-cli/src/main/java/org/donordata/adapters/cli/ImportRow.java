package org.donordata.adapters.cli;

import java.util.Map;

/**
 * One donor of an import file: the line it starts on, its fields as a client's document (as the HTTP adapter hands
 * them to the core: String, Boolean, null, or a value the core reports as the wrong type), and whether the file says
 * it was erased or merged (an export's erased_at or merged_into), which the import skips.
 *
 * @param consent the donor's consent as the file gives it, by CHANNEL:PURPOSE (docs/api.md, "Consent"): a status as
 *        sent, or a value the import refuses; empty for none
 * @param unreadable why the line could not be read as a donor at all; null when it could
 */
record ImportRow(long line, Map<String, Object> document, Map<String, Object> consent, boolean erased,
        String unreadable) {

    static ImportRow unreadable(long line, String why) {
        return new ImportRow(line, Map.of(), Map.of(), false, why);
    }
}
