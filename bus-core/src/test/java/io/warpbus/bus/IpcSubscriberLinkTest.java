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

import java.nio.MappedByteBuffer;
import java.nio.file.Path;

import io.warpbus.bus.protocol.RingDescriptor;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What the publisher's side of an IPC subscriber stores into the ring's commit line: a line the subscriber's core
 * reads all the time, so each store that is not needed costs a miss on the publisher's duty cycle
 * (docs/performance.md).
 */
class IpcSubscriberLinkTest
{
    private static final int RING = 64 * 1024;
    private static final long T0 = 1_000_000_000L;

    @TempDir
    Path dir;

    private final LogFixture fixture = new LogFixture();
    private MappedByteBuffer mapped;
    /** The subscriber's own mapping of the ring, which outlives the link's. */
    private MappedByteBuffer view;
    private UnsafeBuffer ring;

    @AfterEach
    void tearDown()
    {
        IoUtil.unmap(view);
        IoUtil.unmap(mapped);
    }

    @Test
    void shouldFollowTheLogsCommitWhileTheWindowAllowsItAndStoreABoundOtherwise()
    {
        final IpcSubscriberLink link = attached(SlowConsumerPolicy.DROP);

        link.writeCommit(4096, 4096, 4096, 1, 7, RingDescriptor.PUBLISHER_CONNECTED);
        assertEquals(RingDescriptor.FOLLOW_LOG_COMMIT, commit(), "everything published is within the window");

        link.writeCommit(RING, RING, RING + 4096, 1, 7, RingDescriptor.PUBLISHER_CONNECTED);
        assertEquals(RING, commit(), "the window bounds it below the log's commit position");

        link.writeCommit(2L * RING, 2L * RING, 2L * RING, 1, 7, RingDescriptor.PUBLISHER_CONNECTED);
        assertEquals(RingDescriptor.FOLLOW_LOG_COMMIT, commit(), "caught up: it follows the log again");

        link.committed = 2L * RING;
        link.close("publication closed", RingDescriptor.PUBLISHER_CLOSED);
        assertEquals(2L * RING, commit(), "when the link ends, the ring's commit is what it was given");
    }

    @Test
    void shouldStoreTheHeartbeatOnceAMillisecondAtMost()
    {
        final IpcSubscriberLink link = attached(SlowConsumerPolicy.BLOCK);

        ring.putLong(RING + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET, 0);
        link.writeCommit(64, 64, 64, 1, 7, RingDescriptor.PUBLISHER_CONNECTED);
        assertEquals(0, ring.getLong(RING + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET),
            "the same millisecond as the attach: not stored again");
        link.writeCommit(128, 128, 128, 2, 7, RingDescriptor.PUBLISHER_CONNECTED);
        assertEquals(2, ring.getLong(RING + RingDescriptor.PUBLISHER_HEARTBEAT_OFFSET), "a new millisecond");
    }

    private IpcSubscriberLink attached(final SlowConsumerPolicy policy)
    {
        final Path file = dir.resolve("ring-test.dat");
        mapped = IpcDirectory.createRing(file, RING, SlowConsumerPolicy.CONFLATE == policy);
        final IpcSubscriberLink link = new IpcSubscriberLink("ring-test", policy, RING,
            fixture.counters.newCounter("position"), fixture.counters.newCounter("lag"), file, mapped, fixture.log,
            null, System::nanoTime);
        link.attach(7, 0, 0, -1, -1, T0, 1);
        view = IpcDirectory.mapRing(file);
        ring = new UnsafeBuffer(view);
        return link;
    }

    private long commit()
    {
        // Read through the test's own mapping: the link unmaps its one when it closes.
        return ring.getLongVolatile(RING + RingDescriptor.COMMIT_POSITION_OFFSET);
    }
}
