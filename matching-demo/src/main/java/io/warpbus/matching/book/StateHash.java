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
package io.warpbus.matching.book;

import io.warpbus.matching.OrderType;
import io.warpbus.matching.Side;

/**
 * The 64-bit hash that {@link OrderBook#stateHash()} and the engine fold their state into: deterministic across
 * runs, JVMs and implementations, so two engines fed the same commands can be compared, or a recovered engine
 * checked against a recorded value. Not cryptographic.
 */
public final class StateHash
{
    /**
     * Starting value of every hash.
     */
    public static final long SEED = 0x5742_4D45_0000_0001L;

    private static final long PRIME_1 = 0x9E37_79B9_7F4A_7C15L;
    private static final long PRIME_2 = 0xC2B2_AE3D_27D4_EB4FL;
    private static final long PRIME_3 = 0x1656_67B1_9E37_79F9L;

    private StateHash()
    {
    }

    /**
     * Fold one value into a hash; order matters.
     *
     * @param hash  so far.
     * @param value to add.
     * @return the new hash.
     */
    public static long mix(final long hash, final long value)
    {
        final long h = Long.rotateLeft(hash ^ (value * PRIME_1), 27) * PRIME_2 + PRIME_3;
        return h ^ (h >>> 29);
    }

    /**
     * Fold one resting order into a hash.
     *
     * @param hash           so far.
     * @param orderId        engine-assigned id.
     * @param clientOrderId  the account's id for the order.
     * @param accountId      owner.
     * @param side           buy or sell.
     * @param type           order type.
     * @param price          limit price.
     * @param quantity       total quantity.
     * @param filledQuantity quantity traded.
     * @return the new hash.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    public static long order(
        final long hash,
        final long orderId,
        final long clientOrderId,
        final int accountId,
        final Side side,
        final OrderType type,
        final long price,
        final long quantity,
        final long filledQuantity)
    {
        long h = mix(hash, orderId);
        h = mix(h, clientOrderId);
        h = mix(h, ((long)accountId << 16) | ((long)side.code() << 8) | type.code());
        h = mix(h, price);
        h = mix(h, quantity);
        return mix(h, filledQuantity);
    }
}
