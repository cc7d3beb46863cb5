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
package io.warpbus.gateway.fix;

import java.util.concurrent.ConcurrentHashMap;

import quickfix.SessionID;

/**
 * What the adapter holds for one configured FIX session across its logons: its type, its state file, its current
 * logon, and the ClOrdIDs of its orders. The session core knows an order by the ClOrdID it was entered with; FIX
 * renames an order with every cancel or replace request (ClOrdID(11) new, OrigClOrdID(41) the one before), so the
 * adapter keeps, per order, the core's id and the FIX id it answers to now, and for a request in flight the ClOrdID
 * the answer must carry.
 */
final class FixSessionContext implements AutoCloseable
{
    private final SessionID sessionId;
    private final FixSessionType type;
    private final FixSessionState state;
    /** FIX ClOrdID the client uses now, to the core's id of the order. */
    private final ConcurrentHashMap<String, String> coreIds = new ConcurrentHashMap<>();
    /** Core id of an order to the FIX ClOrdID it answers to now. */
    private final ConcurrentHashMap<String, String> currentIds = new ConcurrentHashMap<>();
    /** Core id of an order to the ClOrdID of the cancel or replace request in flight for it. */
    private final ConcurrentHashMap<String, String> pending = new ConcurrentHashMap<>();
    /** Instrument id to the MDReqID of the subscription that asked for it. */
    private final ConcurrentHashMap<Integer, String> mdReqIds = new ConcurrentHashMap<>();
    volatile FixConnection current;

    FixSessionContext(final SessionID sessionId, final FixSessionType type, final FixSessionState state)
    {
        this.sessionId = sessionId;
        this.type = type;
        this.state = state;
    }

    SessionID sessionId()
    {
        return sessionId;
    }

    FixSessionType type()
    {
        return type;
    }

    FixSessionState state()
    {
        return state;
    }

    /**
     * The core's id of the order a FIX ClOrdID names now.
     *
     * @param fixId a ClOrdID or OrigClOrdID from the client.
     * @return the core's id: the same string unless the order was renamed by a cancel or replace request.
     */
    String coreId(final String fixId)
    {
        final String coreId = coreIds.get(fixId);
        return null == coreId ? fixId : coreId;
    }

    /**
     * Is a ClOrdID the current name of an order renamed by a replace (and so not free for a new order)?
     *
     * @param fixId a ClOrdID.
     * @return true if it names a renamed order.
     */
    boolean isAlias(final String fixId)
    {
        return coreIds.containsKey(fixId);
    }

    /**
     * The ClOrdID the client knows an order by now.
     *
     * @param coreId the core's id.
     * @return the FIX ClOrdID.
     */
    String currentId(final String coreId)
    {
        final String current = currentIds.get(coreId);
        return null == current ? coreId : current;
    }

    /**
     * A cancel or replace request is on its way to the core.
     *
     * @param coreId       the order's core id.
     * @param requestClOrdId the request's ClOrdID.
     */
    void pending(final String coreId, final String requestClOrdId)
    {
        pending.put(coreId, requestClOrdId);
    }

    /**
     * The ClOrdID of the request the core has answered, taken off the pending ones.
     *
     * @param coreId the order's core id.
     * @return the request's ClOrdID, or null when none was pending.
     */
    String answered(final String coreId)
    {
        return pending.remove(coreId);
    }

    /**
     * A replace was accepted: the order answers to the replace request's ClOrdID from now on.
     *
     * @param coreId the order's core id.
     * @param fixId  its new ClOrdID.
     */
    void renamed(final String coreId, final String fixId)
    {
        final String previous = currentIds.put(coreId, fixId);
        if (null != previous)
        {
            coreIds.remove(previous);
        }
        if (!coreId.equals(fixId))
        {
            coreIds.put(fixId, coreId);
        }
    }

    /**
     * An order is done: its names are forgotten.
     *
     * @param coreId the order's core id.
     */
    void done(final String coreId)
    {
        final String current = currentIds.remove(coreId);
        if (null != current)
        {
            coreIds.remove(current);
        }
        pending.remove(coreId);
    }

    /**
     * A market-data subscription asked for an instrument.
     *
     * @param instrumentId the instrument.
     * @param mdReqId      the MarketDataRequest's MDReqID (262).
     */
    void subscribed(final int instrumentId, final String mdReqId)
    {
        mdReqIds.put(instrumentId, mdReqId);
    }

    /**
     * The subscription of an instrument ended.
     *
     * @param instrumentId the instrument.
     */
    void unsubscribed(final int instrumentId)
    {
        mdReqIds.remove(instrumentId);
    }

    /**
     * The MDReqID market data of an instrument answers.
     *
     * @param instrumentId the instrument.
     * @return the MDReqID, or null when not asked for.
     */
    String mdReqId(final int instrumentId)
    {
        return mdReqIds.get(instrumentId);
    }

    @Override
    public void close()
    {
        state.close();
    }
}
