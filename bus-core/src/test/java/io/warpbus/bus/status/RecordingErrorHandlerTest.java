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
package io.warpbus.bus.status;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.errors.DistinctErrorLog;
import org.agrona.concurrent.errors.ErrorLogReader;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordingErrorHandlerTest
{
    private final AtomicCounter errors = SystemCountersTest.newCountersManager(4).newCounter("errors");
    private final ByteArrayOutputStream fallbackBytes = new ByteArrayOutputStream();
    private final PrintStream fallback = new PrintStream(fallbackBytes, true, StandardCharsets.UTF_8);

    @Test
    void shouldRecordDistinctErrorsAndCountEveryOne()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024));
        final RecordingErrorHandler handler = new RecordingErrorHandler(
            new DistinctErrorLog(buffer, SystemEpochClock.INSTANCE), errors, fallback);
        final IllegalStateException repeated = new IllegalStateException("repeated");
        handler.onError(repeated);
        handler.onError(repeated);
        handler.onError(new IllegalArgumentException("once"));

        assertEquals(3, errors.get());
        final List<String> recorded = new ArrayList<>();
        final int distinct = ErrorLogReader.read(
            buffer, (count, firstMs, lastMs, text) -> recorded.add(count + " " + text.lines().findFirst().orElse("")));
        assertEquals(2, distinct);
        assertEquals(List.of("2 java.lang.IllegalStateException: repeated",
            "1 java.lang.IllegalArgumentException: once"), recorded);
        assertEquals(0, fallbackBytes.size());
    }

    @Test
    void shouldPrintErrorsThatDoNotFitInTheLog()
    {
        final UnsafeBuffer tiny = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final RecordingErrorHandler handler = new RecordingErrorHandler(
            new DistinctErrorLog(tiny, SystemEpochClock.INSTANCE), errors, fallback);
        handler.onError(new IllegalStateException("does not fit"));

        assertEquals(1, errors.get());
        final String printed = fallbackBytes.toString(StandardCharsets.UTF_8);
        assertTrue(printed.startsWith("error log full"), printed);
        assertTrue(printed.contains("java.lang.IllegalStateException: does not fit"), printed);
    }
}
