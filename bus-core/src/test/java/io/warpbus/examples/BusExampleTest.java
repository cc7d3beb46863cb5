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
package io.warpbus.examples;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.FragmentAssembler;
import io.warpbus.bus.Image;
import io.warpbus.bus.ImageListener;
import io.warpbus.bus.Publication;
import io.warpbus.bus.Subscription;
import io.warpbus.iwarp.ThreadingMode;
import io.warpbus.testing.FreePorts;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bus example of the README, compiled and run: a publication and a subscription on one bus driven by this
 * thread, over iWARP on loopback.
 */
@Timeout(30)
class BusExampleTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunTheReadmeExample() throws Exception
    {
        final int port = FreePorts.loopback();
        final List<String> received = new ArrayList<>();
        // tag::bus[]
        try (Bus bus = Bus.launch(new BusContext().directory(dir).threadingMode(ThreadingMode.INVOKER)))
        {
            final String channel = "warp:iwarp?endpoint=127.0.0.1:" + port + "|stream=1001";
            final ExclusivePublication publication = bus.addExclusivePublication(channel);
            final Subscription subscription = bus.addSubscription(channel + "|policy=drop|lag=4m",
                new ImageListener()
                {
                    @Override
                    public void onUnavailable(final Image image, final String reason)
                    {
                        System.out.println("publisher " + image.sessionId() + " gone: " + reason);
                    }

                    @Override
                    public void onGap(final Image image, final long from, final long to, final long position)
                    {
                        System.out.println("missed sequences " + from + ".." + to);
                    }
                });
            while (!publication.isConnected())
            {
                bus.doWork();  // INVOKER mode: the application's thread runs the bus
            }

            final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
            final int length = message.putStringWithoutLengthAscii(0, "BUY 100 ACME @ 10.25");
            long result;
            while ((result = publication.offer(message, 0, length)) < 0)
            {
                if (Publication.CLOSED == result || Publication.MAX_POSITION_EXCEEDED == result)
                {
                    throw new IllegalStateException("cannot publish: " + Publication.statusName(result));
                }
                bus.doWork();  // BACK_PRESSURED, NOT_CONNECTED or ADMIN_ACTION: try again
            }

            // FragmentAssembler reassembles messages longer than one frame; short ones pass straight through.
            final FragmentAssembler assembler = new FragmentAssembler((buffer, offset, len, header) ->
                received.add(header.sequence() + ": " + buffer.getStringWithoutLengthAscii(offset, len)));
            while (received.isEmpty())
            {
                bus.doWork();
                subscription.poll(assembler, 10);
            }
        }
        // end::bus[]
        assertEquals(List.of("0: BUY 100 ACME @ 10.25"), received);
    }
}
