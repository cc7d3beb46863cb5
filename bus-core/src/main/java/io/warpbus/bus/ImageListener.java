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

/**
 * Learns when publishers' images come and go, and of gaps in their sequences.
 * {@link #onAvailable} and {@link #onUnavailable} are called on the bus's thread; {@link #onGap} on the thread that
 * polls the subscription, just before the first fragment after the gap.
 */
public interface ImageListener
{
    /**
     * A publisher's session became available.
     *
     * @param image the image.
     */
    default void onAvailable(final Image image)
    {
    }

    /**
     * A publisher's session is gone.
     *
     * @param image  the image.
     * @param reason why: disconnected, heartbeat timeout, dropped as a slow consumer, end of stream…
     */
    default void onUnavailable(final Image image, final String reason)
    {
    }

    /**
     * Messages were missed: sequences {@code fromSequence} to {@code toSequence} inclusive will not arrive on this
     * image (after a reconnect or a slow-consumer drop, beyond the publisher's retained log). A journal can fill
     * them.
     *
     * @param image        the image.
     * @param fromSequence first missing sequence.
     * @param toSequence   last missing sequence.
     * @param position     stream position where the next message starts.
     */
    default void onGap(final Image image, final long fromSequence, final long toSequence, final long position)
    {
    }
}
