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

import java.util.Locale;

/**
 * How the demo's processes reach each other on the bus, chosen from the cores the machine has unless the user chose
 * ({@code --transport}). They all run on one host. With three cores or more they talk over the user-space iWARP
 * engine on loopback, as they would across hosts. With two or fewer they share the host's memory
 * ({@code warp:ipc}): over loopback the kernel's TCP work for iWARP took two thirds of the engine's time on a
 * 2-core machine, time the other four processes needed (docs/performance.md, "The demo on two cores").
 */
final class DemoTransport
{
    static final String IPC = "ipc";
    static final String IWARP = "iwarp";
    /** Most cores on which the processes share memory rather than iWARP over loopback. */
    static final int IPC_UP_TO_CORES = 2;

    private final boolean ipc;
    private final String reason;

    private DemoTransport(final boolean ipc, final String reason)
    {
        this.ipc = ipc;
        this.reason = reason;
    }

    /**
     * Choose the transport.
     *
     * @param cores the cores this JVM may use ({@link Runtime#availableProcessors()}).
     * @param asked {@code --transport}, or null to choose.
     * @return the choice.
     * @throws IllegalArgumentException naming the option when {@code asked} is neither {@value #IPC} nor
     *                                  {@value #IWARP}.
     */
    static DemoTransport choose(final int cores, final String asked)
    {
        if (null != asked)
        {
            final String name = asked.trim().toLowerCase(Locale.ROOT);
            if (!IPC.equals(name) && !IWARP.equals(name))
            {
                throw new IllegalArgumentException("--transport: expected " + IPC + " or " + IWARP + ", not '" +
                    asked + "'");
            }
            return new DemoTransport(IPC.equals(name), "as --transport asked");
        }
        if (cores <= IPC_UP_TO_CORES)
        {
            return new DemoTransport(true, cores + " core" + (1 == cores ? "" : "s") + ": the processes share this " +
                "host's memory; iWARP over loopback spends much of the cores in the kernel's TCP, which five " +
                "processes on two cores cannot spare; --transport iwarp runs them over the iWARP engine");
        }
        return new DemoTransport(false, cores + " cores: every process over the user-space iWARP engine on " +
            "loopback, as across hosts");
    }

    /**
     * Is it shared memory?
     *
     * @return true for {@code warp:ipc}, false for {@code warp:iwarp}.
     */
    boolean ipc()
    {
        return ipc;
    }

    /**
     * The channel of one stream.
     *
     * @param host   the publisher's address (iWARP only).
     * @param port   the publisher's port (iWARP only).
     * @param stream the stream id.
     * @param name   the subscriber's name at the publisher.
     * @return the channel URI.
     */
    String channel(final String host, final int port, final int stream, final String name)
    {
        return (ipc ? "warp:ipc?" : "warp:iwarp?endpoint=" + host + ":" + port + "|") + "stream=" + stream +
            "|name=" + name;
    }

    /**
     * One line for the banner: what was chosen and why.
     *
     * @return the text.
     */
    @Override
    public String toString()
    {
        return (ipc ? IPC + " (shared memory, " : IWARP + " (") + reason + ")";
    }
}
