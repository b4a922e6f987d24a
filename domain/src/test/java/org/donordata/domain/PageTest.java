package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class PageTest {

    @Test
    void limitAboveTheMaximumIsClampedHoweverLarge() {
        assertEquals(new PageRequest(30, 0), PageRequest.of(31, 0));
        assertEquals(new PageRequest(30, 5), PageRequest.of(Long.MAX_VALUE, 5));
        assertEquals(new PageRequest(7, Long.MAX_VALUE), PageRequest.of(7, Long.MAX_VALUE));
    }

    @Test
    void aLimitBelowOneAndANegativeOffsetAreBothNamed() {
        InvalidInputException rejected = assertThrows(InvalidInputException.class, () -> PageRequest.of(0, -1));

        assertEquals(List.of("limit", "offset"), rejected.problems().stream().map(Problem::subject).toList());
        assertEquals("limit must be at least 1; offset must be at least 0.", rejected.getMessage());
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
