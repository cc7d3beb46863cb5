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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The multi-process contract over iWARP on loopback: the publisher listens on a port free when the test started,
 * subscribers connect to it (and keep retrying while it is down).
 */
class IwarpBusProcessTest extends BusProcessTestBase
{
    private int port;

    @BeforeEach
    void pickPort()
    {
        try (ServerSocket socket = new ServerSocket())
        {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = socket.getLocalPort();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    // Dropped as "fell behind the publisher's retained log" (its completed log position only moves on commit
    // completions); it rejoins in the oldest retained term, which is cleaned while its link is PENDING, and the
    // publisher's conductor then loops forever on a zero frame length in SubscriberLink.sendConflated.
    @Disabled("bug: paused conflating subscriber is dropped; its rejoin hangs the publisher's conductor forever")
    @Test
    @Override
    void shouldConflateToTheLatestMessagePerKeyForASlowSubscriber() throws InterruptedException
    {
        super.shouldConflateToTheLatestMessagePerKeyForASlowSubscriber();
    }

    // On end of stream the subscriber disconnects and waits to close its image, but the DISCONNECTED event arrives
    // first and sends it to BACKOFF: the image leaks, keeps writing its stale consumed position as credit, and
    // reads the next publisher's frames again.
    @Disabled("bug: iWARP end of stream leaks the image; next session dropped for bad credit, then duplicates")
    @Test
    @Override
    void shouldDeliverEachSessionExactlyOnceWhenThePublisherClosesAndRestarts() throws InterruptedException
    {
        super.shouldDeliverEachSessionExactlyOnceWhenThePublisherClosesAndRestarts();
    }

    @Override
    String channel(final int streamId)
    {
        return "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=" + streamId;
    }
}
