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
package io.warpbus.demo;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.warpbus.bus.Bus;
import io.warpbus.bus.ExclusivePublication;
import io.warpbus.bus.Subscription;
import io.warpbus.demo.client.LoadClient;
import io.warpbus.demo.service.EngineService;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.orderentry.sbe.EngineHeartbeatEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderDecoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.testing.Await;
import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A subscriber to the execution-report stream sees itself connected before the engine's publication counts it, so a
 * report published in between would reach nobody and its command would never be answered. The engine therefore
 * greets every new report subscriber with a heartbeat, and the load client sends no command before it has heard one.
 */
@Timeout(60)
class ReportStreamJoinTest
{
    private static final long DEADLINE_NS = TimeUnit.SECONDS.toNanos(20);

    @TempDir
    Path dir;
    private EngineRig rig;

    @AfterEach
    void close()
    {
        CloseHelper.quietClose(rig);
    }

    @Test
    void shouldGreetANewReportSubscriberAtOnceRatherThanAtTheNextHeartbeat() throws IOException
    {
        rig = new EngineRig(dir);
        final Bus clientBus = rig.clientBus;
        final LoadProfile profile = LoadProfile.tradingDay(1, 7);
        final EngineService engine = new EngineService(rig.context()
            .instruments(profile.instruments())
            .heartbeatIntervalNs(TimeUnit.HOURS.toNanos(1)));
        final Subscription reports = clientBus.addSubscription(rig.channels.reports);
        final int[] heartbeats = new int[1];
        final MessageHeaderDecoder header = new MessageHeaderDecoder();

        final long deadline = System.nanoTime() + DEADLINE_NS;
        while (0 == heartbeats[0] && System.nanoTime() - deadline < 0)
        {
            Await.checkInterrupted();
            engine.doWork();
            clientBus.doWork();
            reports.poll((buffer, offset, length, frameHeader) ->
            {
                header.wrap(buffer, offset);
                if (EngineHeartbeatEncoder.TEMPLATE_ID == header.templateId())
                {
                    heartbeats[0]++;
                }
            }, 16);
        }

        assertEquals(1, heartbeats[0], "a heartbeat within 20 s although the interval is an hour");
        assertTrue(engine.isExecutionReportStreamConnected());
    }

    @Test
    void shouldSendNoCommandBeforeTheEngineHasGreetedIt() throws IOException
    {
        rig = new EngineRig(dir);
        final DemoRig channels = rig.channels;
        // The test plays the engine: it takes the commands and publishes reports, but says nothing at first.
        final Subscription commands = rig.engineBus.addSubscription(channels.orders);
        final ExclusivePublication reports = rig.engineBus.addExclusivePublication(channels.reports);
        final LoadClient client = new LoadClient(rig.clientBus, channels.orders, channels.reports,
            LoadProfile.tradingDay(1, 7).commandsPerSecond(100_000), 1_000, SystemNanoClock.INSTANCE);
        final int[] received = new int[1];

        long deadline = System.nanoTime() + DEADLINE_NS;
        while (!(commands.isConnected() && reports.isConnected()) && System.nanoTime() - deadline < 0)
        {
            drive(client, commands, received);
        }
        assertTrue(commands.isConnected() && reports.isConnected(), "connected both ways within 20 s");
        final long quiet = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() - quiet < 0)
        {
            drive(client, commands, received);
        }
        assertFalse(client.isStarted(), "started before the engine spoke");
        assertEquals(0, received[0], "commands sent before the engine spoke");

        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(64));
        final EngineHeartbeatEncoder heartbeat = new EngineHeartbeatEncoder();
        heartbeat.wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder()).lastExecId(0).transactTime(1);
        final int length = MessageHeaderEncoder.ENCODED_LENGTH + heartbeat.encodedLength();
        deadline = System.nanoTime() + DEADLINE_NS;
        while (reports.offer(buffer, 0, length) < 0 && System.nanoTime() - deadline < 0)
        {
            drive(client, commands, received);
        }
        while (0 == received[0] && System.nanoTime() - deadline < 0)
        {
            drive(client, commands, received);
        }

        assertTrue(client.isStarted(), "started once greeted");
        assertTrue(received[0] > 0, "commands flow once greeted");
    }

    private void drive(final LoadClient client, final Subscription commands, final int[] received)
    {
        Await.checkInterrupted();
        rig.engineBus.doWork();
        client.doWork();
        received[0] += commands.poll((buffer, offset, length, header) -> { }, 64);
    }
}
