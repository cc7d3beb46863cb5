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
package io.warpbus.bus;

import java.util.ArrayList;

/**
 * The places a publication keeps for the durable subscribers it lost. A durable subscriber is one that announced a
 * replay endpoint (a recorder) with the {@code block} policy: the stream is journaled through it, so when its
 * connection is lost without it saying goodbye (killed, its host or link down) the publication does not forget
 * it. For up to the durable timeout it keeps the subscriber's place, the log position it had consumed up to:
 * <ul>
 *     <li>the retained log is not cleaned past that place, so the returning subscriber resumes from it with
 *     nothing lost; offers back-pressure only once the log is full up to it (the window less a term);</li>
 *     <li>the publication counts as connected, so offers are accepted with no other subscriber;</li>
 *     <li>{@link Publication#isDrained()} waits for it.</li>
 * </ul>
 * The place is released when a subscriber announcing the same replay endpoint is connected again (it then holds
 * the log as any block subscriber does), or when the timeout passes, which is reported: the subscriber will then
 * find a gap. A subscriber that closes its subscription leaves for good and keeps no place.
 * <p>
 * Owned by the conductor's thread. Nothing here allocates unless a durable subscriber is lost.
 */
final class DurableSubscriberTracker
{
    /**
     * A durable subscriber that is away.
     *
     * @param key        what identifies it when it returns: its announced replay endpoint.
     * @param name       the name it last subscribed under.
     * @param position   the log position it had consumed up to, held for it.
     * @param sinceNs    when it was lost.
     * @param deadlineNs when its place is released.
     */
    record Absence(String key, String name, long position, long sinceNs, long deadlineNs)
    {
    }

    private final ArrayList<Absence> absences = new ArrayList<>();
    private final long timeoutNs;

    /**
     * A tracker for one publication.
     *
     * @param timeoutNs how long a place is kept; 0 keeps none.
     */
    DurableSubscriberTracker(final long timeoutNs)
    {
        this.timeoutNs = timeoutNs;
    }

    /**
     * Does this subscriber get a place kept when it is lost?
     *
     * @param policy   its slow-consumer policy.
     * @param announce the replay endpoint it announced, or empty.
     * @return true when it is durable.
     */
    boolean isDurable(final SlowConsumerPolicy policy, final String announce)
    {
        return timeoutNs > 0 && SlowConsumerPolicy.BLOCK == policy && !announce.isEmpty();
    }

    /**
     * A durable subscriber was lost: keep its place. A subscriber lost again before it was back (say, while its
     * connection was still being set up) keeps its first place and deadline: it never extends its own absence.
     *
     * @param key      its durable key.
     * @param name     its name.
     * @param position the log position it had consumed up to.
     * @param nowNs    now.
     * @return the absence recorded.
     */
    Absence onLost(final String key, final String name, final long position, final long nowNs)
    {
        for (int i = 0, size = absences.size(); i < size; i++)
        {
            final Absence absence = absences.get(i);
            if (absence.key().equals(key))
            {
                return absence;
            }
        }
        final Absence absence = new Absence(key, name, position, nowNs, nowNs + timeoutNs);
        absences.add(absence);
        return absence;
    }

    /**
     * A durable subscriber is connected again: release its place.
     *
     * @param key its durable key.
     * @return its absence, or null when it had none.
     */
    Absence onReturned(final String key)
    {
        for (int i = absences.size() - 1; i >= 0; i--)
        {
            if (absences.get(i).key().equals(key))
            {
                return absences.remove(i);
            }
        }
        return null;
    }

    /**
     * Release the places whose time is up.
     *
     * @param nowNs now.
     * @return the first absence released, or null (one a call: the caller reports it).
     */
    Absence expire(final long nowNs)
    {
        for (int i = absences.size() - 1; i >= 0; i--)
        {
            if (nowNs - absences.get(i).deadlineNs() >= 0)
            {
                return absences.remove(i);
            }
        }
        return null;
    }

    /**
     * The lowest position held for absent subscribers.
     *
     * @return the position, or {@link Long#MAX_VALUE} when none is away.
     */
    long heldPosition()
    {
        long held = Long.MAX_VALUE;
        for (int i = 0, size = absences.size(); i < size; i++)
        {
            held = Math.min(held, absences.get(i).position());
        }
        return held;
    }

    /**
     * The position held for one absent subscriber.
     *
     * @param key its durable key (its announced replay endpoint; empty matches none).
     * @return the position, or {@link Long#MAX_VALUE} when it is not away.
     */
    long heldPosition(final String key)
    {
        for (int i = 0, size = absences.size(); i < size; i++)
        {
            final Absence absence = absences.get(i);
            if (absence.key().equals(key))
            {
                return absence.position();
            }
        }
        return Long.MAX_VALUE;
    }

    /**
     * How many durable subscribers are away.
     *
     * @return the count.
     */
    int absentCount()
    {
        return absences.size();
    }

    /**
     * Forget every place (the publication is closing).
     */
    void clear()
    {
        absences.clear();
    }

    /**
     * How long a place is kept.
     *
     * @return nanoseconds, 0 for none.
     */
    long timeoutNs()
    {
        return timeoutNs;
    }
}
