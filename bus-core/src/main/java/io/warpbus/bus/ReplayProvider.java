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
 * Serves replays at an endpoint registered with {@link Bus#addReplayEndpoint(String, ReplayProvider)}. A subscriber
 * asks with a replay channel ({@code replay-from} or {@code replay-from-time}, optionally {@code replay-to}); the bus
 * asks the provider where the replay starts, creates a publication for that one subscriber whose sequences start
 * there, and hands it over. The provider then offers the recorded frames into it in order, with
 * {@link ExclusivePublication#offerRecorded}, and closes it when the replay is done or its subscriber has left.
 * Both calls come on the bus's thread and must not block.
 */
public interface ReplayProvider
{
    /**
     * A subscriber asks for a replay. Check it against what is recorded.
     *
     * @param streamId      the stream.
     * @param fromSequence  first sequence wanted, or -1 when a time is given.
     * @param toSequence    last sequence wanted, or -1 to follow the recording until the subscriber leaves.
     * @param fromTimeNs    first record received at or after this epoch time, or -1.
     * @param subscriber    the subscriber's name and address, for logs.
     * @return the sequence the replay starts at.
     * @throws RuntimeException whose message says why the replay is refused (unknown stream, before retention,
     *                          beyond the live edge); the subscriber receives that message.
     */
    long onReplayRequest(int streamId, long fromSequence, long toSequence, long fromTimeNs, String subscriber);

    /**
     * The replay's publication is ready and its subscriber is joining.
     *
     * @param publication  to feed; its next frame gets sequence {@code fromSequence}.
     * @param fromSequence where it starts (as returned by {@link #onReplayRequest}).
     * @param toSequence   last sequence wanted, or -1 to follow the recording.
     */
    void onReplayStarted(ExclusivePublication publication, long fromSequence, long toSequence);
}
