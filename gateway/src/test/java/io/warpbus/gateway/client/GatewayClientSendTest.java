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
package io.warpbus.gateway.client;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's sends from several threads at once (commands, heartbeats, answers to test requests) against a
 * WebSocket that, like the JDK's, fails a send made while another is pending and completes each a little later on
 * a thread of its own.
 */
@Timeout(30)
class GatewayClientSendTest
{
    private final ScheduledExecutorService completer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void after()
    {
        completer.shutdownNow();
    }

    @Test
    void shouldTakeTurnsSoThatNoSendMeetsAnotherPending() throws Exception
    {
        final OneSendAtATime socket = new OneSendAtATime(completer);
        final GatewayClient client =
            new GatewayClient(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false, 0);
        client.connectedTo(socket);
        final int threads = 3;
        final int each = 100;
        final CountDownLatch start = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < threads; t++)
        {
            final int sender = t;
            final Thread thread = new Thread(() ->
            {
                try
                {
                    start.await();
                    for (int i = 0; i < each; i++)
                    {
                        client.send(sender + ":" + i);
                    }
                }
                catch (final Throwable ex)
                {
                    failure.compareAndSet(null, ex);
                }
            });
            thread.start();
            senders.add(thread);
        }
        start.countDown();
        for (final Thread thread : senders)
        {
            thread.join(20_000);
        }

        assertNull(failure.get(), () -> "a send failed: " + failure.get());
        assertEquals(threads * each, socket.sent.size());
        for (int t = 0; t < threads; t++)
        {
            int next = 0;
            for (final String text : socket.sent)
            {
                if (text.startsWith(t + ":"))
                {
                    assertEquals(t + ":" + next, text, "each thread's messages in its order");
                    next++;
                }
            }
            assertEquals(each, next);
        }
        assertTrue(socket.maxPending <= 1, "sends pending at once: " + socket.maxPending);
    }

    /**
     * A WebSocket whose sends complete 0.2 ms after they are made, and which fails a text send made while one is
     * pending, as {@code java.net.http.WebSocket#sendText} documents.
     */
    private static final class OneSendAtATime implements WebSocket
    {
        private final ScheduledExecutorService completer;
        private final List<String> sent = Collections.synchronizedList(new ArrayList<>());
        private int pending;
        private int maxPending;

        OneSendAtATime(final ScheduledExecutorService completer)
        {
            this.completer = completer;
        }

        @Override
        public synchronized CompletableFuture<WebSocket> sendText(final CharSequence data, final boolean last)
        {
            if (pending > 0)
            {
                maxPending = Math.max(maxPending, pending + 1);
                return CompletableFuture.failedFuture(new IllegalStateException("Send pending"));
            }
            pending++;
            maxPending = Math.max(maxPending, pending);
            final CompletableFuture<WebSocket> done = new CompletableFuture<>();
            completer.schedule(() ->
            {
                synchronized (this)
                {
                    sent.add(data.toString());
                    pending--;
                }
                done.complete(this);
            }, 200, TimeUnit.MICROSECONDS);
            return done;
        }

        @Override
        public CompletableFuture<WebSocket> sendBinary(final ByteBuffer data, final boolean last)
        {
            throw new UnsupportedOperationException("text only");
        }

        @Override
        public CompletableFuture<WebSocket> sendPing(final ByteBuffer message)
        {
            throw new UnsupportedOperationException("text only");
        }

        @Override
        public CompletableFuture<WebSocket> sendPong(final ByteBuffer message)
        {
            throw new UnsupportedOperationException("text only");
        }

        @Override
        public CompletableFuture<WebSocket> sendClose(final int statusCode, final String reason)
        {
            return CompletableFuture.completedFuture(this);
        }

        @Override
        public void request(final long n)
        {
        }

        @Override
        public String getSubprotocol()
        {
            return "";
        }

        @Override
        public boolean isOutputClosed()
        {
            return false;
        }

        @Override
        public boolean isInputClosed()
        {
            return false;
        }

        @Override
        public void abort()
        {
        }
    }
}
