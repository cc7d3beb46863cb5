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

import io.warpbus.bus.protocol.FrameDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class LogSequencerTest
{
    private final LogFixture fixture = new LogFixture();
    private final LogBuffer log = fixture.log;

    @Test
    void shouldStampDataFramesInLogOrderFromTheInitialSequence()
    {
        final LogSequencer sequencer = fixture.sequencer(100);
        final long first = fixture.append(FrameDescriptor.TYPE_DATA, 10);
        final long pad = fixture.append(FrameDescriptor.TYPE_PAD, 40);
        final long second = fixture.append(FrameDescriptor.TYPE_DATA, 100);

        assertEquals(3, sequencer.scan());

        assertEquals(100, FrameDescriptor.sequence(log.buffer, log.offset(first)));
        assertEquals(0, FrameDescriptor.sequence(log.buffer, log.offset(pad)), "padding carries no sequence");
        assertEquals(101, FrameDescriptor.sequence(log.buffer, log.offset(second)));
        assertEquals(102, sequencer.nextSequence());
        assertEquals(100, sequencer.initialSequence());
        assertEquals(log.tail.get(), log.published.get());
        assertEquals(log.tail.get(), fixture.position.get());
        assertEquals(2, fixture.messages.get());
        assertEquals(110, fixture.bytes.get(), "payload bytes of data frames only");
    }

    @Test
    void shouldStopAtTheFirstFrameNotYetCommitted()
    {
        final LogSequencer sequencer = fixture.sequencer(0);
        fixture.append(FrameDescriptor.TYPE_DATA, 8);
        final long uncommitted = fixture.append(FrameDescriptor.TYPE_DATA, 8);
        fixture.append(FrameDescriptor.TYPE_DATA, 8);
        FrameDescriptor.commit(log.buffer, log.offset(uncommitted), 0);

        assertEquals(1, sequencer.scan());
        assertEquals(uncommitted, log.published.get());
        assertEquals(0, sequencer.scan(), "nothing more until the writer commits");

        FrameDescriptor.commit(log.buffer, log.offset(uncommitted), FrameDescriptor.HEADER_LENGTH + 8);
        assertEquals(2, sequencer.scan());
        assertEquals(log.tail.get(), log.published.get());
        assertEquals(3, sequencer.nextSequence());
    }

    @Test
    void shouldPublishABoundedNumberOfFramesPerScan()
    {
        final LogSequencer sequencer = fixture.sequencer(0);
        log.cleanPosition = 3L * LogFixture.TERM_LENGTH;
        fixture.appendData(4100, 0);

        assertEquals(4096, sequencer.scan());
        assertEquals(4, sequencer.scan());
        assertEquals(4100, sequencer.nextSequence());
    }

    /**
     * An exclusive publication's log is not zeroed as it is reused: what an earlier lap left past the writer's tail
     * looks committed, and must not be published.
     */
    @Test
    void shouldStopAtTheSingleWritersTailWhateverLiesBeyondIt()
    {
        final LogSequencer sequencer = fixture.sequencer(0, true);
        final long tail = appendTwoThenThreePastTheTail();

        assertEquals(2, sequencer.scan());
        assertEquals(tail, log.published.get());
        assertEquals(0, sequencer.scan());

        fixture.appendData(1, 8);
        assertEquals(1, sequencer.scan());
        assertEquals(3, sequencer.nextSequence());
    }

    @Test
    void shouldPublishPastTheTailOnlyWhenWritersAreConcurrent()
    {
        final LogSequencer sequencer = fixture.sequencer(0, false);
        appendTwoThenThreePastTheTail();

        assertEquals(5, sequencer.scan(), "concurrent writers' frames are found by their committed lengths");
    }

    /**
     * Two frames below the tail and three committed past it, as an earlier lap leaves them.
     *
     * @return the tail.
     */
    private long appendTwoThenThreePastTheTail()
    {
        fixture.appendData(2, 8);
        final long tail = log.tail.get();
        fixture.appendData(3, 8);
        log.tail.set(tail);
        return tail;
    }

    @Test
    void shouldNotPublishBeyondTheCleanPosition()
    {
        final LogSequencer sequencer = fixture.sequencer(0);
        log.cleanPosition = 2L * FrameDescriptor.alignedLength(8);
        fixture.appendData(3, 8);

        assertEquals(2, sequencer.scan());
        assertEquals(log.cleanPosition, log.published.get());
    }
}
