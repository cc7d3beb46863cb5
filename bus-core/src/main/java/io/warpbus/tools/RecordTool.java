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
package io.warpbus.tools;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import io.warpbus.bus.Bus;
import io.warpbus.bus.BusContext;
import io.warpbus.bus.ChannelUri;
import io.warpbus.journal.Journal;
import io.warpbus.journal.JournalContext;
import io.warpbus.journal.StreamRecorder;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * {@code warpbus record --channel URI --dir DIR [--replay-endpoint HOST:PORT]}: the standalone recorder. Records
 * the stream into a journal under DIR and serves replays of it at the replay endpoint (by default the publisher's
 * host and the port after the publisher's), which it announces to the publisher so subscribers find it. Restarted
 * after a crash it resumes after the last sequence recorded. Runs until Ctrl-C, then prints what it recorded.
 */
public final class RecordTool
{
    private static final Set<String> OPTIONS = Set.of("--channel", "--dir", "--replay-endpoint", "--idle");

    private RecordTool()
    {
    }

    /**
     * Run the tool.
     *
     * @param args the options.
     */
    public static void main(final String[] args)
    {
        System.exit(run(args, System.out, System.err, new AtomicBoolean(true)));
    }

    static int run(final String[] args, final PrintStream out, final PrintStream err, final AtomicBoolean running)
    {
        final ToolArgs options;
        final String channel;
        final Path dir;
        final String replayEndpoint;
        try
        {
            options = ToolArgs.parse(args, OPTIONS, Set.of());
            channel = options.required("--channel");
            dir = Path.of(options.required("--dir"));
            final ChannelUri uri = ChannelUri.parse(channel);
            if (uri.isIpc() && null == options.string("--replay-endpoint", null))
            {
                throw new IllegalArgumentException("an ipc channel needs --replay-endpoint HOST:PORT");
            }
            replayEndpoint = options.string("--replay-endpoint", uri.isIpc() ? null :
                uri.endpoint().getAddress().getHostAddress() + ":" + (uri.endpoint().getPort() + 1));
        }
        catch (final IllegalArgumentException ex)
        {
            err.println("warpbus record: " + ex.getMessage());
            err.println("usage: warpbus record --channel URI --dir DIR [--replay-endpoint HOST:PORT] " +
                "[--idle STRATEGY]");
            return SubTool.EXIT_USAGE;
        }
        final Thread main = Thread.currentThread();
        final Thread hook = new Thread(() ->
        {
            running.set(false);
            try
            {
                main.join(5_000);
            }
            catch (final InterruptedException ignore)
            {
                Thread.currentThread().interrupt();
            }
        }, "warpbus-record-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        final BusContext context = new BusContext().name("record-" + ProcessHandle.current().pid())
            .idleStrategy(options.string("--idle", "backoff"));
        try (Journal journal = Journal.open(new JournalContext().directory(dir));
            Bus bus = Bus.launch(context);
            StreamRecorder recorder = new StreamRecorder(bus, journal, channel, replayEndpoint,
                (error) -> err.println("warpbus record: " + error.getMessage())))
        {
            out.println("recording " + channel + " into " + dir + (recorder.lastSequence() >= 0 ?
                " after sequence " + recorder.lastSequence() : "") + "; serving replays at " + replayEndpoint);
            out.flush();
            final IdleStrategy idle = new BackoffIdleStrategy();
            while (running.get())
            {
                idle.idle(recorder.doWork());
            }
            out.println("recorded " + recorder.recorded() + " messages up to sequence " + recorder.lastSequence() +
                ", duplicates skipped " + recorder.duplicates() + ", gaps " + recorder.gaps() + ", replays served " +
                recorder.replayService().replays());
            out.flush();
            return SubTool.EXIT_OK;
        }
        catch (final RuntimeException ex)
        {
            err.println("warpbus record: " + ex.getMessage());
            return SubTool.EXIT_FAILED;
        }
        finally
        {
            try
            {
                Runtime.getRuntime().removeShutdownHook(hook);
            }
            catch (final IllegalStateException ignore)
            {
                // Already shutting down.
            }
        }
    }
}
