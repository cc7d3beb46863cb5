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

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * Receives a stream: one {@link Image} per publisher session, polled in turn. The bus keeps the subscription
 * connected: it retries until the publisher is up, reconnects after a failure and resumes from the next sequence.
 * Polled by one application thread.
 */
public final class Subscription implements AutoCloseable
{
    private static final Image[] NO_IMAGES = new Image[0];

    private final Bus bus;
    private final ChannelUri channel;
    private final SlowConsumerPolicy policy;
    private final ImageListener listener;
    private final AtomicCounter gapCounter;
    private final AtomicCounter systemGaps;
    private final AtomicCounter messagesIn;
    private final long registrationId;
    private final AtomicLong gapsMissing = new AtomicLong();
    private volatile Image[] images = NO_IMAGES;
    private volatile boolean closed;
    private SubscriptionEndpoint endpoint;
    private int roundRobin;
    private long resumeSequence = -1;
    private int resumeSession;

    Subscription(
        final Bus bus,
        final ChannelUri channel,
        final ImageListener listener,
        final long registrationId,
        final AtomicCounter gaps,
        final AtomicCounter systemGaps,
        final AtomicCounter messagesIn)
    {
        this.bus = bus;
        this.registrationId = registrationId;
        this.systemGaps = systemGaps;
        this.messagesIn = messagesIn;
        this.channel = channel;
        this.policy = channel.policy();
        this.listener = null != listener ? listener : new ImageListener()
        {
        };
        this.gapCounter = gaps;
    }

    void resumeFrom(final long sequence, final int session)
    {
        this.resumeSequence = sequence < 0 ? -1 : sequence;
        this.resumeSession = session;
    }

    long resumeSequence()
    {
        return resumeSequence;
    }

    int resumeSession()
    {
        return resumeSession;
    }

    /**
     * Deliver up to {@code fragmentLimit} fragments across the images, starting with a different image each time.
     *
     * @param handler       receives the fragments.
     * @param fragmentLimit most fragments to deliver.
     * @return fragments delivered.
     */
    public int poll(final FragmentHandler handler, final int fragmentLimit)
    {
        final Image[] images = this.images;
        final int length = images.length;
        if (0 == length)
        {
            return 0;
        }
        int fragments = 0;
        int start = roundRobin++;
        if (start >= length)
        {
            start = 0;
            roundRobin = 1;
        }
        for (int i = start; i < length && fragments < fragmentLimit; i++)
        {
            fragments += images[i].poll(handler, fragmentLimit - fragments);
        }
        for (int i = 0; i < start && fragments < fragmentLimit; i++)
        {
            fragments += images[i].poll(handler, fragmentLimit - fragments);
        }
        if (fragments > 0)
        {
            messagesIn.getAndAddOrdered(fragments);
        }
        return fragments;
    }

    /**
     * Deliver up to {@code fragmentLimit} fragments to a handler that steers the poll.
     *
     * @param handler       receives the fragments.
     * @param fragmentLimit most fragments to deliver.
     * @return fragments consumed.
     */
    public int controlledPoll(final ControlledFragmentHandler handler, final int fragmentLimit)
    {
        final Image[] images = this.images;
        int fragments = 0;
        for (int i = 0; i < images.length && fragments < fragmentLimit; i++)
        {
            fragments += images[i].controlledPoll(handler, fragmentLimit - fragments);
        }
        return fragments;
    }

    /**
     * The images, one per connected publisher session.
     *
     * @return a snapshot.
     */
    public Image[] images()
    {
        return images.clone();
    }

    /**
     * Number of images.
     *
     * @return the count.
     */
    public int imageCount()
    {
        return images.length;
    }

    /**
     * Is at least one publisher connected?
     *
     * @return true with an image.
     */
    public boolean isConnected()
    {
        return images.length > 0;
    }

    /**
     * The channel.
     *
     * @return the channel.
     */
    public ChannelUri channel()
    {
        return channel;
    }

    /**
     * The stream id.
     *
     * @return the id.
     */
    public int streamId()
    {
        return channel.streamId();
    }

    /**
     * The slow-consumer policy this subscription asked for.
     *
     * @return the policy.
     */
    public SlowConsumerPolicy policy()
    {
        return policy;
    }

    /**
     * Messages reported missing so far across all gaps.
     *
     * @return the count.
     */
    public long missingMessages()
    {
        return gapsMissing.get();
    }

    /**
     * Has the subscription been closed?
     *
     * @return true once closed.
     */
    public boolean isClosed()
    {
        return closed;
    }

    /**
     * Stop receiving; the publisher is told and stops sending.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            bus.removeSubscription(this);
        }
    }

    void endpoint(final SubscriptionEndpoint endpoint)
    {
        this.endpoint = endpoint;
    }

    long registrationId()
    {
        return registrationId;
    }

    AtomicCounter messagesIn()
    {
        return messagesIn;
    }

    SubscriptionEndpoint endpoint()
    {
        return endpoint;
    }

    ImageListener listener()
    {
        return listener;
    }

    void addImage(final Image image)
    {
        final Image[] old = images;
        final Image[] updated = Arrays.copyOf(old, old.length + 1);
        updated[old.length] = image;
        images = updated;
    }

    void removeImage(final Image image)
    {
        final Image[] old = images;
        int index = -1;
        for (int i = 0; i < old.length; i++)
        {
            if (old[i] == image)
            {
                index = i;
                break;
            }
        }
        if (index >= 0)
        {
            final Image[] updated = new Image[old.length - 1];
            System.arraycopy(old, 0, updated, 0, index);
            System.arraycopy(old, index + 1, updated, index, old.length - index - 1);
            images = updated;
        }
    }

    void onGap(final long fromSequence, final long toSequence)
    {
        gapsMissing.addAndGet(toSequence - fromSequence + 1);
        gapCounter.increment();
        systemGaps.increment();
    }

    void onCorruptImage(final Image image, final String reason)
    {
        bus.onError(new BusException("subscription " + channel + ": " + reason + " from " +
            image.sourceIdentity()));
    }

    @Override
    public String toString()
    {
        return "Subscription{" + channel + ", images=" + images.length + '}';
    }
}
