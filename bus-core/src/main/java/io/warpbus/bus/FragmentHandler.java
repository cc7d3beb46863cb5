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
 * Receives fragments from {@link Subscription#poll}. An unfragmented message arrives as one fragment; wrap the
 * handler in a {@link FragmentAssembler} to receive long messages whole.
 */
@FunctionalInterface
public interface FragmentHandler
{
    /**
     * One fragment, readable only during the call. Never write into the buffer (do not cast it to a mutable one):
     * for an IPC subscription that blocks or drops it is the publisher's log, mapped read-only, and a write would
     * crash the process.
     *
     * @param buffer holding the payload.
     * @param offset where it starts.
     * @param length its length.
     * @param header the frame's header.
     */
    void onFragment(DirectBuffer buffer, int offset, int length, Header header);
}
