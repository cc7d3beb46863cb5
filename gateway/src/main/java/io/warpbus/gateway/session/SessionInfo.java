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

import java.util.List;

/**
 * A session as operators see it: a snapshot taken on the session core's thread.
 *
 * @param token           the session token (32 hex digits).
 * @param user            user name.
 * @param name            the session name the client gave.
 * @param address         the client's address at logon.
 * @param state           {@code connected}, {@code disconnected} (resumable) or {@code ending}.
 * @param createdEpochMs  when the session was opened.
 * @param lastSeq         the last sequence number it was given.
 * @param messagesIn      messages received on it.
 * @param messagesOut     messages sent on it.
 * @param openOrders      its live orders.
 * @param subscriptions   symbols it is subscribed to.
 * @param conflatedUpdates market-data updates conflated for it.
 * @param queueBytes      bytes waiting in its outbound queue.
 * @param queueCapacity   the queue's capacity.
 */
public record SessionInfo(
    String token,
    String user,
    String name,
    String address,
    String state,
    long createdEpochMs,
    long lastSeq,
    long messagesIn,
    long messagesOut,
    int openOrders,
    List<String> subscriptions,
    long conflatedUpdates,
    int queueBytes,
    int queueCapacity)
{
}
