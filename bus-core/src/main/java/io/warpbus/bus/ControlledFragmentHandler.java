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

import org.agrona.DirectBuffer;

/**
 * Receives fragments from {@link Subscription#controlledPoll} and steers the poll.
 */
@FunctionalInterface
public interface ControlledFragmentHandler
{
    /** What the poll does after a fragment. */
    enum Action
    {
        /** Keep this fragment as consumed and go on. */
        CONTINUE,
        /** Keep this fragment as consumed and stop this poll. */
        BREAK,
        /** Do not consume this fragment; stop this poll (it is delivered again next time). */
        ABORT,
        /** Keep this fragment as consumed, make the position visible to the publisher now, and go on. */
        COMMIT
    }

    /**
     * One fragment, readable only during the call.
     *
     * @param buffer holding the payload.
     * @param offset where it starts.
     * @param length its length.
     * @param header the frame's header.
     * @return what to do next.
     */
    Action onFragment(DirectBuffer buffer, int offset, int length, Header header);
}
