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
package io.warpbus.bench.bus;

import org.agrona.DirectBuffer;

/**
 * One system's side of the bus suite in one process: a client of WarpBus or Aeron, and the publications and
 * subscriptions of the case being run. Everything is driven by the benchmark's single thread: {@link #doWork()} is
 * one duty cycle of the system (its conductor and its transport), and nothing runs between calls.
 */
interface Endpoint extends AutoCloseable
{
    /**
     * Receives the payload of one message.
     */
    @FunctionalInterface
    interface MessageHandler
    {
        /**
         * A message.
         *
         * @param buffer holding it.
         * @param offset where it starts.
         * @param length its length.
         */
        void onMessage(DirectBuffer buffer, int offset, int length);
    }

    /**
     * Add a publication; it counts as connected once {@code subscribers} subscribers are attached (when the system
     * can tell, else once one is).
     *
     * @param channel     channel URI.
     * @param streamId    stream (Aeron; WarpBus has it in the URI).
     * @param subscribers subscribers to wait for.
     */
    void addPublication(String channel, int streamId, int subscribers);

    /**
     * Add a subscription.
     *
     * @param channel  channel URI.
     * @param streamId stream (Aeron; WarpBus has it in the URI).
     */
    void addSubscription(String channel, int streamId);

    /**
     * Are all publications and subscriptions connected?
     *
     * @return true when every publication has its subscribers and every subscription an image.
     */
    boolean isConnected();

    /**
     * One duty cycle of the system.
     *
     * @return work done.
     */
    int doWork();

    /**
     * Offer one message once.
     *
     * @param publication index of the publication, in the order added.
     * @param buffer      holding the message.
     * @param offset      where it starts.
     * @param length      its length.
     * @return true when accepted, false when back-pressured or not connected (retry after a duty cycle).
     */
    boolean offer(int publication, DirectBuffer buffer, int offset, int length);

    /**
     * Poll one subscription.
     *
     * @param subscription index of the subscription, in the order added.
     * @param handler      receives the messages.
     * @param limit        most messages to deliver.
     * @return messages delivered.
     */
    int poll(int subscription, MessageHandler handler, int limit);

    /**
     * Close every publication and subscription; the client stays up for the next case.
     */
    void closeChannels();

    /**
     * Shut down the client (and its embedded driver, if any).
     */
    @Override
    void close();
}
