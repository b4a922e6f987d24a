package org.donordata.adapters.cli;

/**
 * CSV cells that a spreadsheet would run as formulas (OWASP "CSV injection"): a name sent through a public donation
 * form as {@code =HYPERLINK("http://evil.example","click")} or {@code @SUM(1)} would be live in Excel once exported. An
 * exported cell that begins with {@code =}, {@code +}, {@code -}, {@code @}, a tab or a carriage return gets a leading
 * apostrophe, which spreadsheets show as text and do not display. Import takes that apostrophe off again, so an export
 * imports as the same donors. A cell that begins with apostrophes followed by such a character gets one more, so that
 * every value survives the round trip exactly ({@code '=x} exports as {@code ''=x}); any other apostrophe, as in
 * {@code 't Hooft}, is left alone both ways.
 */
final class SpreadsheetCells {

    private static final String FORMULA_STARTS = "=+-@\t\r";

    private SpreadsheetCells() {
    }

    /** The cell as exported. */
    static String neutralised(String value) {
        return startsLikeAFormula(value) ? "'" + value : value;
    }

    /** The value an exported cell stood for. */
    static String restored(String cell) {
        return cell.startsWith("'") && startsLikeAFormula(cell.substring(1)) ? cell.substring(1) : cell;
    }

    // A formula character first, or after apostrophes only.
    private static boolean startsLikeAFormula(String value) {
        int first = 0;
        while (first < value.length() && value.charAt(first) == '\'') {
            first++;
        }
        return first < value.length() && FORMULA_STARTS.indexOf(value.charAt(first)) >= 0;
    }
}
