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
package io.warpbus.journal;

import org.agrona.DirectBuffer;

/**
 * Receives records from {@link JournalReader#poll(JournalHandler, int)}. The buffer is only valid during the call:
 * it points into the journal's mapped file, so copy what must outlive it.
 */
@FunctionalInterface
public interface JournalHandler
{
    /**
     * One record.
     *
     * @param sequence             the record's sequence, increasing within a stream.
     * @param sessionId            the publisher's session.
     * @param flags                the frame flags (fragment begin/end).
     * @param publisherTimestampNs when the publisher sent it, epoch nanoseconds.
     * @param receiveTimestampNs   when it was recorded, epoch nanoseconds.
     * @param buffer               holding the payload.
     * @param offset               where the payload starts.
     * @param length               payload length.
     */
    void onRecord(
        long sequence,
        int sessionId,
        int flags,
        long publisherTimestampNs,
        long receiveTimestampNs,
        DirectBuffer buffer,
        int offset,
        int length);
}
