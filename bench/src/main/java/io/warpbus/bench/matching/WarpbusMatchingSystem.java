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
package io.warpbus.bench.matching;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import io.warpbus.matching.BookAction;
import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.ExecType;
import io.warpbus.matching.Instrument;
import io.warpbus.matching.MatchingEventListener;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.matching.engine.MatchingEngine;
import io.warpbus.matching.load.LoadProfile;
import io.warpbus.orderentry.RejectReason;
import org.HdrHistogram.Histogram;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Our {@link MatchingEngine} behind a single-producer ring buffer (Agrona {@link OneToOneRingBuffer}), on one
 * busy-spinning engine thread: the producer writes each command as a fixed binary record, the engine thread reads
 * it, runs it through validation, risk and the book, and records its latency when the call returns with all its
 * events delivered (to a listener that counts them, as exchange-core's results consumer sees its events).
 */
final class WarpbusMatchingSystem implements MatchingSystem
{
    private static final int NEW_ORDER = 1;
    private static final int CANCEL = 2;
    private static final int REPLACE = 3;
    private static final int RECORD_LENGTH = 64;

    private final LoadProfile profile;
    private final OneToOneRingBuffer ring = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(
        (1 << 22) + RingBufferDescriptor.TRAILER_LENGTH)));
    private final UnsafeBuffer record = new UnsafeBuffer(ByteBuffer.allocateDirect(RECORD_LENGTH));
    private final AtomicLong processed = new AtomicLong();
    private final Histogram latencies = new Histogram(60_000_000_000L, 3);
    private final CountingListener listener = new CountingListener();
    private volatile boolean running = true;
    private volatile boolean resetRequested;
    private Thread thread;
    private MatchingEngine engine;

    WarpbusMatchingSystem(final LoadProfile profile)
    {
        this.profile = profile;
    }

    @Override
    public String name()
    {
        return "warpbus-matching";
    }

    @Override
    public void start()
    {
        engine = new MatchingEngine(new MatchingEngine.Context().listener(listener).bookCapacity(64 * 1024)
            .accountOrderCapacity(64 * 1024));
        for (final Instrument instrument : profile.instruments())
        {
            engine.addInstrument(instrument);
        }
        for (final int accountId : profile.accountIds())
        {
            engine.addAccount(accountId, profile.riskLimits());
        }
        thread = new Thread(this::run, "warpbus-matching");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public CommandHandler producer()
    {
        return producer;
    }

    @Override
    public long awaitProcessed(final long count) throws InterruptedException
    {
        while (processed.get() < count)
        {
            if (!thread.isAlive())
            {
                throw new IllegalStateException("engine thread died");
            }
            Thread.onSpinWait();
            if (Thread.interrupted())
            {
                throw new InterruptedException();
            }
        }
        return System.nanoTime();
    }

    @Override
    public Histogram latencies()
    {
        return latencies;
    }

    @Override
    public void resetLatencies()
    {
        resetRequested = true;
        while (resetRequested)
        {
            Thread.onSpinWait();
        }
    }

    @Override
    public void close()
    {
        running = false;
        if (null == thread)
        {
            return;
        }
        try
        {
            thread.join(10_000);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    long trades()
    {
        return listener.trades;
    }

    private void run()
    {
        final MatchingEngine engine = this.engine;
        final Histogram latencies = this.latencies;
        final org.agrona.concurrent.MessageHandler handler = (typeId, buffer, offset, length) ->
        {
            final long plannedNs = buffer.getLong(offset);
            switch (typeId)
            {
                case NEW_ORDER:
                    engine.newOrder(buffer.getLong(offset + 8), buffer.getInt(offset + 16), buffer.getInt(offset + 20),
                        Side.get(buffer.getByte(offset + 24)), OrderType.get(buffer.getByte(offset + 25)),
                        TimeInForce.get(buffer.getByte(offset + 26)), buffer.getLong(offset + 32),
                        buffer.getLong(offset + 40), plannedNs);
                    break;
                case CANCEL:
                    engine.cancel(buffer.getLong(offset + 8), buffer.getInt(offset + 16), buffer.getInt(offset + 20),
                        plannedNs);
                    break;
                default:
                    engine.replace(buffer.getLong(offset + 8), buffer.getInt(offset + 16), buffer.getInt(offset + 20),
                        buffer.getLong(offset + 32), buffer.getLong(offset + 40), plannedNs);
                    break;
            }
            latencies.recordValue(Math.max(0, Math.min(60_000_000_000L, System.nanoTime() - plannedNs)));
            processed.lazySet(processed.get() + 1);
        };
        while (running)
        {
            if (resetRequested)
            {
                latencies.reset();
                resetRequested = false;
            }
            if (0 == ring.read(handler, 256))
            {
                Thread.onSpinWait();
            }
        }
    }

    private void write(final int type)
    {
        while (!ring.write(type, record, 0, RECORD_LENGTH))
        {
            Thread.onSpinWait();
        }
    }

    private final CommandHandler producer = new CommandHandler()
    {
        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void newOrder(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final Side side,
            final OrderType type,
            final TimeInForce timeInForce,
            final long price,
            final long quantity,
            final long timestampNs)
        {
            final MutableDirectBuffer record = WarpbusMatchingSystem.this.record;
            record.putLong(0, timestampNs);
            record.putLong(8, clientOrderId);
            record.putInt(16, accountId);
            record.putInt(20, instrumentId);
            record.putByte(24, (byte)side.code());
            record.putByte(25, (byte)type.code());
            record.putByte(26, (byte)timeInForce.code());
            record.putLong(32, price);
            record.putLong(40, quantity);
            write(NEW_ORDER);
        }

        @Override
        public void cancel(
            final long clientOrderId, final int accountId, final int instrumentId, final long timestampNs)
        {
            record.putLong(0, timestampNs);
            record.putLong(8, clientOrderId);
            record.putInt(16, accountId);
            record.putInt(20, instrumentId);
            write(CANCEL);
        }

        @Override
        public void replace(
            final long clientOrderId,
            final int accountId,
            final int instrumentId,
            final long newPrice,
            final long newQuantity,
            final long timestampNs)
        {
            record.putLong(0, timestampNs);
            record.putLong(8, clientOrderId);
            record.putInt(16, accountId);
            record.putInt(20, instrumentId);
            record.putLong(32, newPrice);
            record.putLong(40, newQuantity);
            write(REPLACE);
        }
    };

    /**
     * Counts events as a results consumer would see them.
     */
    private static final class CountingListener implements MatchingEventListener
    {
        long executions;
        long trades;
        long levels;

        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void onExecution(
            final int instrumentId,
            final long orderId,
            final long clientOrderId,
            final int accountId,
            final Side side,
            final ExecType execType,
            final RejectReason reason,
            final long price,
            final long orderQuantity,
            final long lastPrice,
            final long lastQuantity,
            final long cumulativeQuantity,
            final long leavesQuantity,
            final long timestampNs)
        {
            executions++;
        }

        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void onTrade(
            final int instrumentId,
            final long tradeId,
            final long price,
            final long quantity,
            final Side aggressorSide,
            final long aggressorOrderId,
            final long restingOrderId,
            final long timestampNs)
        {
            trades++;
        }

        @Override
        @SuppressWarnings("checkstyle:parameternumber")
        public void onBookLevel(
            final int instrumentId,
            final Side side,
            final BookAction action,
            final long price,
            final long quantity,
            final int orderCount,
            final int depth,
            final long timestampNs)
        {
            levels++;
        }
    }
}
