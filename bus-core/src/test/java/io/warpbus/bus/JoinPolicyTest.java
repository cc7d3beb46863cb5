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

import java.util.ArrayList;
import java.util.List;

import io.warpbus.bus.protocol.FrameDescriptor;
import io.warpbus.bus.protocol.SubscribeHandshake;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.warpbus.bus.LogFixture.SESSION_ID;
import static io.warpbus.bus.LogFixture.STREAM_ID;
import static io.warpbus.bus.LogFixture.TERM_LENGTH;
import static io.warpbus.bus.LogFixture.WINDOW_LENGTH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(10)
class JoinPolicyTest
{
    private static final int MAX_SUBSCRIBERS = 2;
    private static final int FRAME = FrameDescriptor.alignedLength(32);
    private static final int BLOCK = SlowConsumerPolicy.BLOCK.ordinal();
    private static final int DROP = SlowConsumerPolicy.DROP.ordinal();
    private static final int CONFLATE = SlowConsumerPolicy.CONFLATE.ordinal();

    private final LogFixture fixture = new LogFixture();
    private final List<SubscriberLink> links = new ArrayList<>();

    @Test
    void shouldAcceptAWellFormedRequest()
    {
        assertNull(policy(0, 0).refusal(request("risk", BLOCK, TERM_LENGTH), "10.0.0.9:5000"));
    }

    @Test
    void shouldRefuseAnUnknownSlowConsumerPolicy()
    {
        assertEquals("unknown slow-consumer policy code 7",
            policy(0, 0).refusal(request("risk", 7, TERM_LENGTH), null));
    }

    @Test
    void shouldRefuseANegativeDropLag()
    {
        final SubscribeHandshake.Request request = new SubscribeHandshake.Request(STREAM_ID, 0, 0, TERM_LENGTH, DROP,
            -1, 0, -1, 0, "risk", 0, -1, -1, "");

        assertEquals("negative drop lag -1 or lag-timeout 0 ns", policy(0, 0).refusal(request, null));
    }

    @Test
    void shouldRefuseConflationOnlyWhenThePublicationDeclaresNoKey()
    {
        final SubscribeHandshake.Request request = request("risk", CONFLATE, TERM_LENGTH);

        assertEquals("stream 1001 does not allow conflation (the publication declares no conflation-key)",
            policy(0, 0).refusal(request, null));
        assertNull(policy(8, 0).refusal(request, null));
    }

    @Test
    void shouldRefuseARingThePublicationCannotServe()
    {
        assertEquals("subscriber ring 100000 must be a power of two of at least one term (65536)",
            policy(0, 0).refusal(request("risk", BLOCK, 100_000), null));
        assertEquals("subscriber ring 262144 plus two terms must fit in the window 262144: a publication cannot " +
            "serve a ring that large", policy(0, 0).refusal(request("risk", BLOCK, WINDOW_LENGTH), null));
    }

    @Test
    void shouldRefuseASecondSubscriptionOfTheSameNameUntilTheFirstIsClosed()
    {
        final JoinPolicy policy = policy(0, 0);
        final SubscriberLink first = link("risk");
        links.add(first);

        assertEquals("duplicate subscription 'risk' on stream 1001 (already connected, new request from " +
            "10.0.0.9:5000)", policy.refusal(request("risk", BLOCK, TERM_LENGTH), "10.0.0.9:5000"));
        assertEquals("duplicate subscription 'risk' on stream 1001 (already connected)",
            policy.refusal(request("risk", BLOCK, TERM_LENGTH), null));

        first.state = SubscriberLink.CLOSED;
        assertNull(policy.refusal(request("risk", BLOCK, TERM_LENGTH), null));
    }

    @Test
    void shouldRefuseASubscriberBeyondTheLimitCountingOnlyOpenLinks()
    {
        final JoinPolicy policy = policy(0, 0);
        links.add(link("a"));
        links.add(link("b"));

        assertEquals("publication on stream 1001 already serves 2 subscribers (the limit)",
            policy.refusal(request("c", BLOCK, TERM_LENGTH), null));

        links.get(0).state = SubscriberLink.CLOSED;
        assertNull(policy.refusal(request("c", BLOCK, TERM_LENGTH), null));
    }

    @Test
    void shouldJoinLiveWithoutAResumePoint()
    {
        final LogSequencer sequencer = publish(0, 3);

        assertEquals(new JoinPolicy.JoinPoint(3 * FRAME, 3, -1, -1),
            policy(sequencer, 0).joinPoint(request("risk", BLOCK, TERM_LENGTH)));
    }

    @Test
    void shouldResumeAtTheRequestedSequenceOfThisSession()
    {
        final LogSequencer sequencer = publish(0, 3);

        assertEquals(new JoinPolicy.JoinPoint(FRAME, 1, -1, -1),
            policy(sequencer, 0).joinPoint(resume(BLOCK, 1, SESSION_ID, 0)));
    }

    @Test
    void shouldJoinLiveWhenResumingAtTheNextSequence()
    {
        final LogSequencer sequencer = publish(0, 3);

        assertEquals(new JoinPolicy.JoinPoint(3 * FRAME, 3, -1, -1),
            policy(sequencer, 0).joinPoint(resume(BLOCK, 3, SESSION_ID, 0)));
    }

    @Test
    void shouldResumeFromTheFirstFrameOfAStreamThatStartedAgain()
    {
        final LogSequencer sequencer = publish(0, 3);

        assertEquals(new JoinPolicy.JoinPoint(0, 0, -1, -1),
            policy(sequencer, 0).joinPoint(resume(BLOCK, 500, 7, 0)),
            "another session's sequence 500 means nothing to a stream that restarted at 0");
    }

    @Test
    void shouldResumeBySequenceAcrossSessionsAndReportWhatIsNoLongerHeld()
    {
        final LogSequencer sequencer = publish(100, 3);

        assertEquals(new JoinPolicy.JoinPoint(0, 100, 50, 99),
            policy(sequencer, 0).joinPoint(resume(BLOCK, 50, 7, 0)),
            "a publication continuing the stream at 100 no longer holds 50..99");
    }

    @Test
    void shouldJoinADropSubscriberLiveWhenItsResumePointIsBeyondItsDropLag()
    {
        final LogSequencer sequencer = publish(0, 3);

        assertEquals(new JoinPolicy.JoinPoint(3 * FRAME, 3, 0, 2),
            policy(sequencer, 0).joinPoint(resume(DROP, 0, SESSION_ID, FRAME)));
        assertEquals(new JoinPolicy.JoinPoint(2 * FRAME, 2, -1, -1),
            policy(sequencer, 0).joinPoint(resume(DROP, 2, SESSION_ID, FRAME)));
        assertEquals(new JoinPolicy.JoinPoint(0, 0, -1, -1),
            policy(sequencer, 0).joinPoint(resume(BLOCK, 0, SESSION_ID, FRAME)),
            "a blocking subscriber resumes wherever the log still holds");
    }

    @Test
    void shouldResumeAReturningDurableSubscriberFromItsPlaceInTheOldestTerm()
    {
        final LogSequencer sequencer = publish(0, 3);
        // The cleaner has come round: the term holding the three frames is the oldest, the one it zeroes next.
        fixture.log.cleanPosition = WINDOW_LENGTH;
        final JoinPolicy policy = policy(sequencer, 0);

        assertEquals(new JoinPolicy.JoinPoint(3 * FRAME, 3, 1, 2),
            policy.joinPoint(resume(BLOCK, 1, SESSION_ID, 0)),
            "an ordinary subscriber never joins in the oldest term: it is told what it missed");
        assertEquals(new JoinPolicy.JoinPoint(FRAME, 1, -1, -1),
            policy.joinPoint(resume(BLOCK, 1, SESSION_ID, 0), FRAME),
            "a durable subscriber whose place was kept there resumes from it, the cleaner held behind it");
    }

    @Test
    void shouldBoundEveryDropLagByTheRetainedLog()
    {
        final long retained = WINDOW_LENGTH - 2L * TERM_LENGTH;
        final JoinPolicy generous = policy(0, Long.MAX_VALUE);

        assertEquals(retained, generous.dropLagFor(resume(DROP, -1, 0, 0)), "the default is bounded");
        assertEquals(1024, generous.dropLagFor(resume(DROP, -1, 0, 1024)), "what the subscriber asks for");
        assertEquals(retained, generous.dropLagFor(resume(DROP, -1, 0, 1L << 40)), "what it asks for is bounded");
        assertEquals(4096, policy(0, 4096).dropLagFor(resume(DROP, -1, 0, 0)), "the publication's default");
    }

    private LogSequencer publish(final long initialSequence, final int frames)
    {
        final LogSequencer sequencer = fixture.sequencer(initialSequence);
        fixture.appendData(frames, 32);
        sequencer.scan();
        return sequencer;
    }

    private JoinPolicy policy(final int keyLength, final long dropLag)
    {
        return new JoinPolicy(STREAM_ID, SESSION_ID, fixture.log, fixture.sequencer(0), keyLength, dropLag,
            MAX_SUBSCRIBERS, links);
    }

    private JoinPolicy policy(final LogSequencer sequencer, final long dropLag)
    {
        return new JoinPolicy(STREAM_ID, SESSION_ID, fixture.log, sequencer, 0, dropLag, MAX_SUBSCRIBERS, links);
    }

    private static SubscribeHandshake.Request request(final String name, final int policy, final int ringCapacity)
    {
        return new SubscribeHandshake.Request(STREAM_ID, 0, 0, ringCapacity, policy, -1, 0, 0, 0, name, 0, -1, -1,
            "");
    }

    private static SubscribeHandshake.Request resume(
        final int policy, final long resumeSequence, final int resumeSession, final long dropLag)
    {
        return new SubscribeHandshake.Request(STREAM_ID, 0, 0, TERM_LENGTH, policy, resumeSequence, resumeSession,
            dropLag, 0, "risk", 0, -1, -1, "");
    }

    private static SubscriberLink link(final String clientName)
    {
        final SubscriberLink link = new StubLink();
        link.clientName = clientName;
        return link;
    }

    /** A subscriber that moves no bytes: the policy reads only its name and state. */
    private static final class StubLink extends SubscriberLink
    {
        StubLink()
        {
            super("stub", SlowConsumerPolicy.BLOCK, TERM_LENGTH, null, null);
        }

        @Override
        boolean writeRange(final int logOffset, final int length, final int ringOffset)
        {
            return true;
        }

        @Override
        boolean writePadding(final int ringOffset, final int length)
        {
            return true;
        }

        @Override
        boolean writeCommit(
            final long commitPosition,
            final long logPosition,
            final long logCommit,
            final long nowMs,
            final int sessionId,
            final int status)
        {
            return true;
        }

        @Override
        void readCredit(final long nowNs)
        {
        }

        @Override
        int poll(final long nowNs)
        {
            return 0;
        }

        @Override
        long completedLogPosition()
        {
            return logPosition;
        }

        @Override
        boolean hasLeft()
        {
            return false;
        }

        @Override
        void close(final String reason, final int status)
        {
            state = CLOSED;
        }

        @Override
        String failure()
        {
            return null;
        }

        @Override
        void onRetired()
        {
        }

        @Override
        boolean isDrained()
        {
            return true;
        }
    }
}
