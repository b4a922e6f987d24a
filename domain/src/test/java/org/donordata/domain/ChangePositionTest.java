package org.donordata.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class ChangePositionTest {

    @Test
    void positionsAreOrderedByChangeThenDonor() {
        List<ChangePosition> sorted = Stream.of(new ChangePosition(2, 1), new ChangePosition(1, 9),
                ChangePosition.START, new ChangePosition(1, 3)).sorted().toList();

        assertEquals(List.of(ChangePosition.START, new ChangePosition(1, 3), new ChangePosition(1, 9),
                new ChangePosition(2, 1)), sorted);
    }

    @Test
    void aPositionIsTwoNumbersOfZeroOrMore() {
        assertThrows(IllegalArgumentException.class, () -> new ChangePosition(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new ChangePosition(0, -1));
    }
}
