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
package io.warpbus.demo.service;

import io.warpbus.bus.Publication;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One output stream of the engine service: offers a message and, while a blocking subscriber holds the stream back,
 * retries inside the duty cycle, driving the bus between tries (in {@code INVOKER} mode nothing else would) and
 * counting every refusal. A message is never dropped silently: it is published, or counted as unrouted (no
 * subscriber connected) or failed (publication closed), and the caller learns which from the return value.
 */
public final class OutboundStream
{
    /**
     * Drives whatever must make progress while the stream waits: the bus's duty cycle in {@code INVOKER} mode.
     */
    @FunctionalInterface
    public interface Driver
    {
        /**
         * One duty cycle.
         *
         * @return work done.
         */
        int doWork();
    }

    private final Publication publication;
    private final Driver driver;
    private final IdleStrategy retryIdle;
    private final AtomicCounter messages;
    private final AtomicCounter backPressureEvents;
    private final AtomicCounter backPressuredMessages;
    private final AtomicCounter notConnected;
    private final AtomicCounter failed;
    private volatile boolean retrying = true;

    /**
     * Wrap a publication.
     *
     * @param publication           to offer to.
     * @param driver                run between retries.
     * @param retryIdle             idles between retries.
     * @param messages              counts messages published.
     * @param backPressureEvents    counts offers refused with back pressure (or admin action).
     * @param backPressuredMessages counts messages that met back pressure at least once before going out.
     * @param notConnected          counts messages not sent because no subscriber was connected.
     * @param failed                counts messages not sent because the publication was closed or full for good.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public OutboundStream(
        final Publication publication,
        final Driver driver,
        final IdleStrategy retryIdle,
        final AtomicCounter messages,
        final AtomicCounter backPressureEvents,
        final AtomicCounter backPressuredMessages,
        final AtomicCounter notConnected,
        final AtomicCounter failed)
    {
        this.publication = publication;
        this.driver = driver;
        this.retryIdle = retryIdle;
        this.messages = messages;
        this.backPressureEvents = backPressureEvents;
        this.backPressuredMessages = backPressuredMessages;
        this.notConnected = notConnected;
        this.failed = failed;
    }

    /**
     * Publish a message, retrying through back pressure until it is accepted, no subscriber is left, or
     * {@link #stopRetrying()} was called.
     *
     * @param buffer holding the message.
     * @param offset where it starts.
     * @param length its length.
     * @return the new stream position, or the negative status that ended the attempt.
     */
    public long publish(final DirectBuffer buffer, final int offset, final int length)
    {
        boolean pressured = false;
        while (true)
        {
            final long result = publication.offer(buffer, offset, length);
            if (result > 0)
            {
                messages.incrementRelease();
                if (pressured)
                {
                    backPressuredMessages.incrementRelease();
                    retryIdle.reset();
                }
                return result;
            }
            if (Publication.BACK_PRESSURED == result || Publication.ADMIN_ACTION == result)
            {
                if (Publication.BACK_PRESSURED == result)
                {
                    backPressureEvents.incrementRelease();
                }
                if (!pressured)
                {
                    pressured = true;
                    retryIdle.reset();
                }
                if (!retrying)
                {
                    failed.incrementRelease();
                    return result;
                }
                if (driver.doWork() <= 0)
                {
                    retryIdle.idle();
                }
                continue;
            }
            if (Publication.NOT_CONNECTED == result)
            {
                notConnected.incrementRelease();
            }
            else
            {
                failed.incrementRelease();
            }
            return result;
        }
    }

    /**
     * Is at least one subscriber connected?
     *
     * @return true if a message would be delivered.
     */
    public boolean isConnected()
    {
        return publication.isConnected();
    }

    /**
     * Stop retrying through back pressure, from any thread, when shutting down: a message then held back is counted
     * as failed rather than waited for.
     */
    public void stopRetrying()
    {
        retrying = false;
    }

    /**
     * The publication.
     *
     * @return the publication.
     */
    public Publication publication()
    {
        return publication;
    }
}
