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
package io.warpbus.iwarp;

import java.nio.ByteBuffer;

import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;

/**
 * The engine's counters, single-writer (the engine's thread) and readable from any thread or, when allocated from
 * a memory-mapped {@link CountersManager}, from another process.
 */
public final class RnicCounters
{
    /** Counter type id of the engine's counters. */
    public static final int TYPE_ID = 100;
    private static final int IN_MEMORY_COUNTERS = 32;

    final AtomicCounter fpdusSent;
    final AtomicCounter fpdusReceived;
    final AtomicCounter bytesSent;
    final AtomicCounter bytesReceived;
    final AtomicCounter crcErrors;
    final AtomicCounter terminatesSent;
    final AtomicCounter terminatesReceived;
    final AtomicCounter connectionsEstablished;
    final AtomicCounter connectionFailures;
    final AtomicCounter mpaTimeouts;
    final AtomicCounter socketWrites;
    final AtomicCounter fpdusPlacedDirectly;

    RnicCounters(final CountersManager manager, final String name)
    {
        final CountersManager counters = null != manager ? manager : inMemory();
        fpdusSent = counters.newCounter(name + ": FPDUs sent", TYPE_ID);
        fpdusReceived = counters.newCounter(name + ": FPDUs received", TYPE_ID);
        bytesSent = counters.newCounter(name + ": bytes sent", TYPE_ID);
        bytesReceived = counters.newCounter(name + ": bytes received", TYPE_ID);
        crcErrors = counters.newCounter(name + ": CRC errors", TYPE_ID);
        terminatesSent = counters.newCounter(name + ": Terminates sent", TYPE_ID);
        terminatesReceived = counters.newCounter(name + ": Terminates received", TYPE_ID);
        connectionsEstablished = counters.newCounter(name + ": connections established", TYPE_ID);
        connectionFailures = counters.newCounter(name + ": connection failures", TYPE_ID);
        mpaTimeouts = counters.newCounter(name + ": MPA timeouts", TYPE_ID);
        socketWrites = counters.newCounter(name + ": socket writes", TYPE_ID);
        fpdusPlacedDirectly = counters.newCounter(name + ": FPDUs placed straight from the socket", TYPE_ID);
    }

    /**
     * FPDUs handed to TCP.
     *
     * @return the count.
     */
    public long fpdusSent()
    {
        return fpdusSent.get();
    }

    /**
     * FPDUs received and processed.
     *
     * @return the count.
     */
    public long fpdusReceived()
    {
        return fpdusReceived.get();
    }

    /**
     * Bytes written to sockets.
     *
     * @return the count.
     */
    public long bytesSent()
    {
        return bytesSent.get();
    }

    /**
     * Bytes read from sockets.
     *
     * @return the count.
     */
    public long bytesReceived()
    {
        return bytesReceived.get();
    }

    /**
     * FPDUs whose CRC did not match.
     *
     * @return the count.
     */
    public long crcErrors()
    {
        return crcErrors.get();
    }

    /**
     * Terminates this engine sent.
     *
     * @return the count.
     */
    public long terminatesSent()
    {
        return terminatesSent.get();
    }

    /**
     * Terminates peers sent.
     *
     * @return the count.
     */
    public long terminatesReceived()
    {
        return terminatesReceived.get();
    }

    /**
     * Connections that reached full operation.
     *
     * @return the count.
     */
    public long connectionsEstablished()
    {
        return connectionsEstablished.get();
    }

    /**
     * Connections that failed to establish or ended in error.
     *
     * @return the count.
     */
    public long connectionFailures()
    {
        return connectionFailures.get();
    }

    /**
     * Connections dropped because the MPA exchange did not finish in time.
     *
     * @return the count.
     */
    public long mpaTimeouts()
    {
        return mpaTimeouts.get();
    }

    /**
     * Socket write calls; with {@link #fpdusSent()} it shows how well small FPDUs are batched.
     *
     * @return the count.
     */
    public long socketWrites()
    {
        return socketWrites.get();
    }

    /**
     * FPDUs received whose payload was read from the socket straight into its region (direct placement), a part
     * of {@link #fpdusReceived()}.
     *
     * @return the count.
     */
    public long fpdusPlacedDirectly()
    {
        return fpdusPlacedDirectly.get();
    }

    private static CountersManager inMemory()
    {
        return new CountersManager(
            new UnsafeBuffer(ByteBuffer.allocateDirect(IN_MEMORY_COUNTERS * CountersManager.METADATA_LENGTH)),
            new UnsafeBuffer(ByteBuffer.allocateDirect(IN_MEMORY_COUNTERS * CountersManager.COUNTER_LENGTH)));
    }
}
