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
package io.warpbus.bus;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.Await;
import io.warpbus.testing.ThreadAllocation;
import io.warpbus.testing.WarmUpClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves the bus's hot paths allocate nothing once warm: offer and tryClaim on both kinds of publication, the
 * conductor's duty cycle (scan, send, commit, credit, heartbeats, cleaning terms) and poll and controlled poll of
 * the subscription, over both transports, all on the test's thread, measured by the JVM's per-thread allocation
 * counter across several term and ring wraps.
 */
@Timeout(120)
class BusAllocationTest
{
    private static final int WARM_UP = 300_000;
    private static final int MEASURED = 200_000;
    private static final int MAX_WINDOWS = 4;
    /** At least the engine's slow-poll interval: its listener is polled on every duty cycle of the warm-up. */
    private static final long WARM_UP_CLOCK_STEP_NS = TimeUnit.MILLISECONDS.toNanos(1);

    @TempDir
    Path dir;
    private Bus bus;
    private final WarmUpClock engineClock = new WarmUpClock(WARM_UP_CLOCK_STEP_NS);
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
    private final BufferClaim bufferClaim = new BufferClaim();
    private long received;
    private long checksum;
    private final FragmentHandler handler = (buffer, offset, length, header) ->
    {
        received++;
        checksum += buffer.getLong(offset) + header.sequence();
    };
    private final ControlledFragmentHandler controlledHandler = (buffer, offset, length, header) ->
    {
        received++;
        checksum += buffer.getLong(offset) + header.sequence();
        return ControlledFragmentHandler.Action.COMMIT;
    };

    @AfterEach
    void tearDown()
    {
        if (null != bus)
        {
            bus.close();
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "iwarp, exclusive, offer",
        "iwarp, concurrent, claim",
        "ipc, exclusive, claim",
        "ipc, concurrent, offer" })
    void shouldNotAllocateInSteadyState(final String transport, final String kind, final String how) throws Exception
    {
        final BusContext context = new BusContext().directory(dir).name("alloc").threadingMode(ThreadingMode.INVOKER)
            .termLength(64 * 1024).window(1024 * 1024).ringCapacity(256 * 1024);
        // Only the iWARP engine's clock is stepped in the warm-up (see WarmUpClock), so that the publisher
        // endpoint's listener is polled on every duty cycle: that clock times only the engine's listener poll and
        // its handshake and teardown deadlines. The bus's own clock times heartbeats, status messages and liveness,
        // which keep their real rates.
        context.rnicContext().nanoClock(engineClock);
        bus = Bus.launch(context);
        // Exclusive publications stamp frames once per duty cycle (timestamp=cycle), concurrent ones per offer.
        final String channel = BusLoopbackTest.channel(transport, 5) +
            ("exclusive".equals(kind) ? "|timestamp=cycle" : "");
        final Subscription subscription = bus.addSubscription(channel);
        final Publication publication = "exclusive".equals(kind) ? bus.addExclusivePublication(channel) :
            bus.addPublication(channel);
        while (!publication.isConnected())
        {
            Await.checkInterrupted();
            bus.doWork();
        }

        final boolean claim = "claim".equals(how);
        engineClock.warmingUp(true);
        exchange(publication, subscription, claim, WARM_UP);
        engineClock.warmingUp(false);
        // Under heavy load a window can catch a one-off: a JDK path taken for the first time (a short socket write),
        // or a method briefly deoptimised after a rare branch and running without escape analysis until it is
        // compiled again. Neither is steady state: two consecutive windows must allocate nothing, and every window
        // is reported if they never do. An allocation per message would show in every window.
        final StringBuilder windows = new StringBuilder();
        int zeroWindowsInARow = 0;
        int measured = 0;
        for (int window = 0; window < MAX_WINDOWS && zeroWindowsInARow < 2; window++)
        {
            final long before = ThreadAllocation.current();
            exchange(publication, subscription, claim, MEASURED);
            final long allocated = ThreadAllocation.current() - before;
            windows.append(allocated).append(' ');
            zeroWindowsInARow = 0 == allocated ? zeroWindowsInARow + 1 : 0;
            measured++;
        }

        assertEquals(WARM_UP + (long)measured * MEASURED, received, "every message received");
        assertTrue(checksum != 0);
        assertEquals(2, zeroWindowsInARow,
            "bytes allocated per window of " + MEASURED + " messages published and received: " + windows);
    }

    private void exchange(final Publication publication, final Subscription subscription, final boolean claim,
        final int count)
    {
        final long target = received + count;
        long sent = received;
        int round = 0;
        while (received < target)
        {
            if (sent < target)
            {
                if (claim)
                {
                    if (publication.tryClaim(40, bufferClaim) > 0)
                    {
                        bufferClaim.buffer().putLong(bufferClaim.offset(), sent);
                        bufferClaim.commit();
                        sent++;
                    }
                }
                else
                {
                    message.putLong(0, sent);
                    if (publication.offer(message, 0, 24 + (int)(sent & 31)) > 0)
                    {
                        sent++;
                    }
                }
            }
            bus.doWork();
            if ((++round & 1) == 0)
            {
                subscription.poll(handler, 64);
            }
            else
            {
                subscription.controlledPoll(controlledHandler, 64);
            }
        }
    }
}
