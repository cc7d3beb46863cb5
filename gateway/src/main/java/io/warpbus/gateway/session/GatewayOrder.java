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
package io.warpbus.gateway.session;

/**
 * What the gateway knows of one order it sent: who owns it (session and client order id), what was asked, and what
 * the engine has said so far. Pooled by {@link OrderTable}; owned by the session core's thread.
 */
final class GatewayOrder
{
    /** Order states, as sent to clients. */
    static final byte PENDING_NEW = 0;
    static final byte NEW = 1;
    static final byte PARTIALLY_FILLED = 2;
    static final byte FILLED = 3;
    static final byte CANCELLED = 4;
    static final byte REJECTED = 5;

    final int slot;
    /** The neighbours among the same session's orders in {@link OrderTable}, as slots; -1 for none. */
    int previousInSession = -1;
    int nextInSession = -1;
    final ClientOrderKey key = new ClientOrderKey();
    long engineClientOrderId;
    long orderId;
    long account;
    int instrumentId;
    byte side;
    byte orderType;
    byte timeInForce;
    boolean postOnly;
    long price;
    long quantity;
    long cumulativeQuantity;
    long leavesQuantity;
    long cumulativeNotional;
    byte status;
    /** Receive time of the client request still waiting for the engine's answer, 0 when none. */
    long pendingRequestNs;
    long pendingSentNs;
    /** A cancel of the gateway's own (logout, cancel-on-disconnect) is on its way to the engine. */
    boolean cancelSent;
    /** Restored from the journal without any answer from the engine: resolved once the engine has caught up. */
    boolean recoveredUnanswered;
    /** Done, kept only so a late answer to a cancel or replace finds it ({@link OrderTable#retire}). */
    boolean retired;
    /** The owning session's token when the order was taken: a retired order's session index may be reused. */
    long sessionToken;

    GatewayOrder(final int slot)
    {
        this.slot = slot;
    }

    int session()
    {
        return key.session();
    }

    boolean isLive()
    {
        return isLive(status);
    }

    static boolean isLive(final byte status)
    {
        return PENDING_NEW == status || NEW == status || PARTIALLY_FILLED == status;
    }

    void clear()
    {
        engineClientOrderId = 0;
        orderId = 0;
        account = 0;
        instrumentId = 0;
        side = 0;
        orderType = 0;
        timeInForce = 0;
        postOnly = false;
        price = 0;
        quantity = 0;
        cumulativeQuantity = 0;
        leavesQuantity = 0;
        cumulativeNotional = 0;
        status = PENDING_NEW;
        pendingRequestNs = 0;
        pendingSentNs = 0;
        cancelSent = false;
        recoveredUnanswered = false;
        retired = false;
        sessionToken = 0;
    }
}
