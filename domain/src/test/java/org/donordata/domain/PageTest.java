package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class PageTest {

    @Test
    void defaultsAreLimit30Offset0() {
        assertEquals(new PageRequest(30, 0), PageRequest.parse(null, null));
    }

    @Test
    void limitAboveTheMaximumIsClampedHoweverLarge() {
        assertEquals(30, PageRequest.parse("31", null).limit());
        assertEquals(30, PageRequest.parse("99999999999999999999999", null).limit());
        assertEquals(7, PageRequest.parse("07", "5").limit());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1.5", "", " 5", "+5", "1e3", "٣"})
    void badLimitsAreRejectedByName(String limit) {
        InvalidInputException rejected = assertThrows(InvalidInputException.class, () -> PageRequest.parse(limit, null));
        assertEquals(List.of("limit"), rejected.problems().stream().map(Problem::subject).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "abc", "1.5", "", "9223372036854775808"})
    void badOffsetsAreRejectedByName(String offset) {
        InvalidInputException rejected = assertThrows(InvalidInputException.class, () -> PageRequest.parse(null, offset));
        assertEquals(List.of("offset"), rejected.problems().stream().map(Problem::subject).toList());
    }

    @Test
    void bothBadParametersAreNamed() {
        InvalidInputException rejected = assertThrows(InvalidInputException.class, () -> PageRequest.parse("x", "y"));
        assertTrue(rejected.getMessage().startsWith("limit must be a whole number"), rejected.getMessage());
        assertTrue(rejected.getMessage().contains("; offset must be a whole number"), rejected.getMessage());
    }

    @Test
    void theSeedsWorkedExample() {
        Page<Integer> page = Page.fromLookahead(numbers(31), new PageRequest(30, 30));

        assertEquals(30, page.items().size());
        assertEquals(Optional.of(new PageRequest(30, 60)), page.next());
        assertEquals(Optional.of(new PageRequest(30, 0)), page.previous());
    }

    @Test
    void firstPageHasNoPreviousAndLastPageNoNext() {
        Page<Integer> only = Page.fromLookahead(numbers(5), new PageRequest(30, 0));

        assertEquals(5, only.items().size());
        assertFalse(only.hasMore());
        assertEquals(Optional.empty(), only.next());
        assertEquals(Optional.empty(), only.previous());
    }

    @Test
    void anExactlyFullLastPageHasNoNext() {
        assertEquals(Optional.empty(), Page.fromLookahead(numbers(30), new PageRequest(30, 0)).next());
    }

    @Test
    void previousNeverGoesBelowZeroAndPastTheEndIsEmpty() {
        Page<Integer> pastTheEnd = Page.fromLookahead(List.of(), new PageRequest(30, 10));

        assertTrue(pastTheEnd.items().isEmpty());
        assertEquals(Optional.empty(), pastTheEnd.next());
        assertEquals(Optional.of(new PageRequest(30, 0)), pastTheEnd.previous());
    }

    @Test
    void noNextBeyondTheLargestOffset() {
        Page<Integer> page = Page.fromLookahead(numbers(2), new PageRequest(1, Long.MAX_VALUE));
        assertEquals(Optional.empty(), page.next());
    }

    private static List<Integer> numbers(int count) {
        return IntStream.range(0, count).boxed().toList();
    }
}
