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
package io.warpbus.demo.client;

import java.nio.ByteBuffer;

import io.warpbus.matching.CommandHandler;
import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;
import io.warpbus.matching.TimeInForce;
import io.warpbus.orderentry.sbe.CancelOrderEncoder;
import io.warpbus.orderentry.sbe.MessageHeaderEncoder;
import io.warpbus.orderentry.sbe.NewOrderEncoder;
import io.warpbus.orderentry.sbe.ReplaceOrderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Encodes the commands a {@link io.warpbus.matching.load.LoadGenerator} produces into order-entry messages, queued
 * in an outbox until the publication takes them: a command is never lost to back pressure, it waits. Each message
 * is stamped with the client's clock when it is encoded, so the engine's reports echo when the client decided to
 * send it. Quantities go out in lots; the generated instruments have a lot size of 1. Allocation free.
 */
public final class OrderSender implements CommandHandler
{
    private static final int MAX_MESSAGE_LENGTH = 64;

    private final NanoClock clock;
    private final UnsafeBuffer outbox;
    private final int[] lengths;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final NewOrderEncoder newOrder = new NewOrderEncoder();
    private final CancelOrderEncoder cancel = new CancelOrderEncoder();
    private final ReplaceOrderEncoder replace = new ReplaceOrderEncoder();
    private int head;
    private int tail;

    /**
     * Make a sender.
     *
     * @param clock    stamps each message's sendingTime.
     * @param capacity most messages queued.
     */
    public OrderSender(final NanoClock clock, final int capacity)
    {
        this.clock = clock;
        this.outbox = new UnsafeBuffer(ByteBuffer.allocateDirect(capacity * MAX_MESSAGE_LENGTH));
        this.lengths = new int[capacity];
    }

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
        final int offset = reserve();
        newOrder.wrapAndApplyHeader(outbox, offset, header)
            .accountId(accountId & 0xFFFF_FFFFL)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .clientOrderId(clientOrderId)
            .side(io.warpbus.orderentry.sbe.Side.get((short)side.code()))
            .orderType(io.warpbus.orderentry.sbe.OrderType.get((short)type.code()))
            .timeInForce(io.warpbus.orderentry.sbe.TimeInForce.get((short)timeInForce.code()))
            .price(price)
            .quantity(quantity)
            .sendingTime(clock.nanoTime());
        commit(MessageHeaderEncoder.ENCODED_LENGTH + newOrder.encodedLength());
    }

    @Override
    public void cancel(final long clientOrderId, final int accountId, final int instrumentId, final long timestampNs)
    {
        final int offset = reserve();
        cancel.wrapAndApplyHeader(outbox, offset, header)
            .accountId(accountId & 0xFFFF_FFFFL)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .clientOrderId(clientOrderId)
            .sendingTime(clock.nanoTime());
        commit(MessageHeaderEncoder.ENCODED_LENGTH + cancel.encodedLength());
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
        final int offset = reserve();
        replace.wrapAndApplyHeader(outbox, offset, header)
            .accountId(accountId & 0xFFFF_FFFFL)
            .instrumentId(instrumentId & 0xFFFF_FFFFL)
            .clientOrderId(clientOrderId)
            .price(newPrice)
            .quantity(newQuantity)
            .sendingTime(clock.nanoTime());
        commit(MessageHeaderEncoder.ENCODED_LENGTH + replace.encodedLength());
    }

    /**
     * Messages waiting to be published.
     *
     * @return the count.
     */
    public int queued()
    {
        return tail - head;
    }

    /**
     * Room for more messages.
     *
     * @return how many more fit.
     */
    public int remaining()
    {
        return lengths.length - queued();
    }

    /**
     * The buffer holding the oldest queued message, at {@link #peekOffset()} for {@link #peekLength()} bytes.
     *
     * @return the outbox buffer.
     */
    public DirectBuffer buffer()
    {
        return outbox;
    }

    /**
     * Where the oldest queued message starts.
     *
     * @return the offset.
     */
    public int peekOffset()
    {
        return (head % lengths.length) * MAX_MESSAGE_LENGTH;
    }

    /**
     * Length of the oldest queued message.
     *
     * @return bytes.
     */
    public int peekLength()
    {
        return lengths[head % lengths.length];
    }

    /**
     * The oldest queued message was published.
     */
    public void pop()
    {
        head++;
        if (head == tail)
        {
            head = 0;
            tail = 0;
        }
    }

    private int reserve()
    {
        if (tail - head == lengths.length)
        {
            throw new IllegalStateException("outbox full: " + lengths.length + " messages queued");
        }
        return (tail % lengths.length) * MAX_MESSAGE_LENGTH;
    }

    private void commit(final int length)
    {
        lengths[tail % lengths.length] = length;
        tail++;
    }
}
