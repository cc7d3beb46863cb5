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
package io.warpbus.gateway.client;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the execution reports of a trading client's orders against what it asked for: each request (new order,
 * cancel) answered exactly once, every fill once and in order (each report's cumulative quantity is the last one's
 * plus its last quantity), nothing after an order ended, every engine exec id once and, over all the client's
 * sessions, none missing from 1 to the highest seen (meaningful when the client is the only one on its gateway's
 * route: the engine numbers a route's reports 1, 2, 3...).
 * <p>
 * A request still unanswered at the end is lost, unless the connection it was sent on died before the answer came:
 * then it is <em>in doubt</em>, counted apart. Its bytes may have died with the gateway before the gateway read them,
 * and the client cannot tell that from an answer still on its way; it is not sent again, since a new order sent
 * again after its first copy had ended would trade twice. Not thread safe: the owner serialises the calls.
 */
final class OrderReportChecker
{
    private final Map<String, Order> orders = new HashMap<>();
    private final BitSet execIds = new BitSet();
    private final List<String> problems = new ArrayList<>();
    private long maxExecId;
    private long requestsSent;
    private long answered;
    private long reports;
    private long fills;
    private long rejects;
    private long unavailableRejects;
    private long duplicateExecIds;
    private long unexpectedAnswers;
    private long fillGaps;
    private long duplicateFills;
    private long reportsAfterEnd;
    private long unknownOrders;

    /**
     * One order as the client knows it.
     */
    static final class Order
    {
        final String clOrdId;
        final long quantity;
        final boolean immediate;
        final int session;
        final int connection;
        int pendingNew;
        int pendingCancels;
        int cancelConnection;
        boolean accepted;
        boolean ended;
        long cumQuantity;

        Order(final String clOrdId, final long quantity, final boolean immediate, final int session,
            final int connection)
        {
            this.clOrdId = clOrdId;
            this.quantity = quantity;
            this.immediate = immediate;
            this.session = session;
            this.connection = connection;
        }

        boolean isLive()
        {
            return accepted && !ended;
        }
    }

    /**
     * A new order was sent.
     *
     * @param clOrdId    its id, new to the client.
     * @param quantity   in units.
     * @param immediate  IOC (it must end by itself: filled or its rest cancelled).
     * @param session    the client's session it went out on (0, 1, ...).
     * @param connection the connection of that session it went out on (a count the owner keeps).
     */
    void onNewOrderSent(final String clOrdId, final long quantity, final boolean immediate, final int session,
        final int connection)
    {
        final Order order = new Order(clOrdId, quantity, immediate, session, connection);
        order.pendingNew = 1;
        if (null != orders.put(clOrdId, order))
        {
            throw new IllegalArgumentException("client order id " + clOrdId + " used twice");
        }
        requestsSent++;
    }

    /**
     * A cancel was sent.
     *
     * @param clOrdId    the order's id.
     * @param connection the connection it went out on.
     */
    void onCancelSent(final String clOrdId, final int connection)
    {
        final Order order = orders.get(clOrdId);
        if (null == order)
        {
            throw new IllegalArgumentException("no order " + clOrdId + " to cancel");
        }
        order.pendingCancels++;
        order.cancelConnection = connection;
        requestsSent++;
    }

    /**
     * An execution report.
     *
     * @param clOrdId     the client's order id.
     * @param execType    as sent.
     * @param execId      the engine's exec id, 0 for the gateway's own answers.
     * @param reason      the reason code.
     * @param lastQuantity this fill's quantity.
     * @param cumQuantity  filled so far.
     * @return null when it is as expected, else what is wrong (also kept, see {@link #problems()}).
     */
    @SuppressWarnings("checkstyle:MethodLength")
    String onReport(final String clOrdId, final String execType, final long execId, final int reason,
        final long lastQuantity, final long cumQuantity)
    {
        reports++;
        if (execId > 0)
        {
            if (execId > Integer.MAX_VALUE - 1)
            {
                return problem("exec id " + execId + " out of range");
            }
            if (execIds.get((int)execId))
            {
                duplicateExecIds++;
                return problem("exec id " + execId + " (" + execType + " of " + clOrdId + ") received twice");
            }
            execIds.set((int)execId);
            maxExecId = Math.max(maxExecId, execId);
        }
        final Order order = orders.get(clOrdId);
        if (null == order)
        {
            unknownOrders++;
            return problem("a report (" + execType + ") of an order never sent: " + clOrdId);
        }
        if (order.ended && !"cancelRejected".equals(execType))
        {
            reportsAfterEnd++;
            return problem(execType + " of " + clOrdId + " after it ended");
        }
        switch (execType)
        {
            case "new" ->
            {
                if (!answerNew(order))
                {
                    return problem("a second answer (new) to new order " + clOrdId);
                }
                order.accepted = true;
            }
            case "rejected" ->
            {
                if (!answerNew(order))
                {
                    return problem("a second answer (rejected) to new order " + clOrdId);
                }
                rejects++;
                if (505 == reason)
                {
                    unavailableRejects++;
                }
                order.ended = true;
            }
            case "partiallyFilled", "filled" ->
            {
                return onFill(order, execType, lastQuantity, cumQuantity);
            }
            case "cancelled" ->
            {
                if (0 == reason && !answerCancel(order))
                {
                    return problem("a cancel of " + clOrdId + " that was not asked for (or answered twice)");
                }
                order.ended = true;
            }
            case "cancelRejected" ->
            {
                if (!answerCancel(order))
                {
                    return problem("a second answer (cancelRejected) to a cancel of " + clOrdId);
                }
            }
            default ->
            {
                unexpectedAnswers++;
                return problem("an execution report of a kind never asked for: " + execType + " of " + clOrdId);
            }
        }
        return null;
    }

    private String onFill(final Order order, final String execType, final long lastQuantity, final long cumQuantity)
    {
        fills++;
        if (!order.accepted)
        {
            fillGaps++;
            return problem(execType + " of " + order.clOrdId + " before its acceptance");
        }
        final long expected = order.cumQuantity + lastQuantity;
        if (lastQuantity <= 0 || cumQuantity < expected)
        {
            duplicateFills++;
            return problem(execType + " of " + order.clOrdId + " with cumulative " + cumQuantity + " after " +
                order.cumQuantity + " and last " + lastQuantity + ": a fill twice");
        }
        final String problem = cumQuantity > expected ? problem(execType + " of " + order.clOrdId + ": cumulative " +
            cumQuantity + " after " + order.cumQuantity + " and last " + lastQuantity + ": a fill never arrived") :
            null;
        if (null != problem)
        {
            fillGaps++;
        }
        order.cumQuantity = cumQuantity;
        if ("filled".equals(execType))
        {
            order.ended = true;
            if (cumQuantity != order.quantity && null == problem)
            {
                fillGaps++;
                return problem("filled " + order.clOrdId + " at cumulative " + cumQuantity + " of " + order.quantity);
            }
        }
        return problem;
    }

    private boolean answerNew(final Order order)
    {
        if (order.pendingNew <= 0)
        {
            unexpectedAnswers++;
            return false;
        }
        order.pendingNew--;
        answered++;
        return true;
    }

    private boolean answerCancel(final Order order)
    {
        if (order.pendingCancels <= 0)
        {
            unexpectedAnswers++;
            return false;
        }
        order.pendingCancels--;
        answered++;
        return true;
    }

    private String problem(final String text)
    {
        if (problems.size() < 100)
        {
            problems.add(text);
        }
        return text;
    }

    /**
     * The oldest live order without a cancel on its way, for the client to cancel.
     *
     * @param ids the client's orders, oldest first.
     * @return its id, or null.
     */
    String oldestCancellable(final Iterable<String> ids)
    {
        for (final String id : ids)
        {
            final Order order = orders.get(id);
            if (null != order && order.isLive() && 0 == order.pendingCancels)
            {
                return id;
            }
        }
        return null;
    }

    /**
     * Is the order accepted and not ended, with no cancel on its way?
     *
     * @param clOrdId its id.
     * @return true when it may be cancelled.
     */
    boolean isCancellable(final String clOrdId)
    {
        final Order order = orders.get(clOrdId);
        return null != order && order.isLive() && 0 == order.pendingCancels;
    }

    /**
     * Is the order waiting for its answer, or accepted and not ended?
     *
     * @param clOrdId its id.
     * @return true while it is open.
     */
    boolean isOpen(final String clOrdId)
    {
        final Order order = orders.get(clOrdId);
        return null != order && (order.pendingNew > 0 || order.isLive());
    }

    /**
     * Requests not answered yet.
     *
     * @param liveConnection per session, the connection it holds now, or -1 when it has none.
     * @param inDoubt        count the requests whose connection died (true) or those sent on the connection their
     *                       session holds now (false).
     * @return the count.
     */
    long pending(final int[] liveConnection, final boolean inDoubt)
    {
        long pending = 0;
        for (final Order order : orders.values())
        {
            final int now = order.session < liveConnection.length ? liveConnection[order.session] : -1;
            if (order.pendingNew > 0 && (now != order.connection) == inDoubt)
            {
                pending += order.pendingNew;
            }
            if (order.pendingCancels > 0 && (now != order.cancelConnection) == inDoubt)
            {
                pending += order.pendingCancels;
            }
        }
        return pending;
    }

    /**
     * The verdict, once the client has stopped and waited for its answers.
     *
     * @param liveConnection per session, the connection it holds now, or -1 when it has none.
     * @return the counts.
     */
    Verdict verdict(final int[] liveConnection)
    {
        long unanswered = 0;
        long inDoubt = 0;
        long unfinished = 0;
        final Map<String, String> examples = new LinkedHashMap<>();
        for (final Order order : orders.values())
        {
            final int now = order.session < liveConnection.length ? liveConnection[order.session] : -1;
            if (order.pendingNew > 0)
            {
                if (now == order.connection)
                {
                    unanswered++;
                    example(examples, "unanswered", order.clOrdId);
                }
                else
                {
                    inDoubt++;
                    example(examples, "in doubt", order.clOrdId);
                }
            }
            if (order.pendingCancels > 0)
            {
                if (now == order.cancelConnection)
                {
                    unanswered += order.pendingCancels;
                    example(examples, "cancel unanswered", order.clOrdId);
                }
                else
                {
                    inDoubt += order.pendingCancels;
                }
            }
            if (order.immediate && order.isLive())
            {
                unfinished++;
                example(examples, "IOC not ended", order.clOrdId);
            }
        }
        final long execIdGaps = maxExecId - execIds.cardinality();
        return new Verdict(requestsSent, answered, reports, fills, rejects, unavailableRejects, unanswered, inDoubt,
            unfinished, fillGaps, execIdGaps, maxExecId, duplicateExecIds, duplicateFills, unexpectedAnswers,
            reportsAfterEnd, unknownOrders, examples);
    }

    private static void example(final Map<String, String> examples, final String kind, final String clOrdId)
    {
        examples.merge(kind, clOrdId, (ids, id) -> ids.split(" ").length < 10 ? ids + " " + id : ids);
    }

    /**
     * What went wrong, at most the first 100.
     *
     * @return the problems.
     */
    List<String> problems()
    {
        return problems;
    }

    /**
     * The counts at the end.
     *
     * @param requestsSent       new orders and cancels sent.
     * @param answered           of those, answered.
     * @param reports            execution reports received.
     * @param fills              of those, fills.
     * @param rejects            new orders rejected.
     * @param unavailableRejects of those, with 505 (the engine did not get it: a restarted gateway's answer).
     * @param unanswered         requests never answered on a connection that stayed up: lost.
     * @param inDoubt            requests never answered whose connection died first.
     * @param unfinished         IOC orders accepted whose end (fill or cancel of the rest) never came: lost.
     * @param fillGaps           fills that never arrived (a cumulative quantity jumped): lost.
     * @param execIdGaps         exec ids from 1 to the highest never received: lost, for the route's only client.
     * @param maxExecId          the highest exec id received.
     * @param duplicateExecIds   exec ids received twice.
     * @param duplicateFills     fills received twice.
     * @param unexpectedAnswers  answers to no request, or a second answer to one.
     * @param reportsAfterEnd    reports of an order after its end.
     * @param unknownOrders      reports of orders never sent.
     * @param examples           per kind of problem (and in doubt), the first ten client order ids.
     */
    @SuppressWarnings("checkstyle:parameternumber")
    record Verdict(long requestsSent, long answered, long reports, long fills, long rejects, long unavailableRejects,
        long unanswered, long inDoubt, long unfinished, long fillGaps, long execIdGaps, long maxExecId,
        long duplicateExecIds, long duplicateFills, long unexpectedAnswers, long reportsAfterEnd, long unknownOrders,
        Map<String, String> examples)
    {
        /**
         * Reports lost, by every check that can see a loss (one lost report may be seen by more than one: an upper
         * bound, zero exactly when nothing was lost).
         *
         * @return the sum.
         */
        long lost()
        {
            return unanswered + unfinished + fillGaps + execIdGaps;
        }

        /**
         * Reports received twice or in the wrong place.
         *
         * @return the sum.
         */
        long duplicated()
        {
            return duplicateExecIds + duplicateFills + unexpectedAnswers + reportsAfterEnd + unknownOrders;
        }
    }
}
