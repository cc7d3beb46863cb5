/*
 * Copyright 2026 the WarpBus authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.warpbus.testing;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class AwaitTest
{
    @Test
    void shouldRunTheStepBeforeEachCheckUntilTheConditionHolds()
    {
        final int[] steps = { 0 };
        Await.until("three steps", 5_000, () -> steps[0]++, () -> 3 == steps[0]);
        assertEquals(3, steps[0]);
    }

    @Test
    void shouldNameWhatItWaitedForWhenTheTimeIsUp()
    {
        final AssertionError error = assertThrows(AssertionError.class,
            () -> Await.until("the publication to connect", 20, () -> false));
        assertEquals("timed out after 20 ms waiting for the publication to connect", error.getMessage());
    }

    @Test
    void shouldDescribeWhatItSawAtTheTimeOfTheFailure()
    {
        final List<String> events = new ArrayList<>();
        final AssertionError error = assertThrows(AssertionError.class,
            () -> Await.until(() -> "an image; events " + events, 20, () -> events.add("step"), () -> false));
        assertTrue(error.getMessage().startsWith("timed out after 20 ms waiting for an image; events [step, step"),
            error.getMessage());
    }

    @Test
    void shouldStopWaitingWhenTheThreadIsInterrupted()
    {
        Thread.currentThread().interrupt();
        try
        {
            assertThrows(IllegalStateException.class, () -> Await.until("nothing", 60_000, () -> false));
        }
        finally
        {
            Thread.interrupted();
        }
    }
}
