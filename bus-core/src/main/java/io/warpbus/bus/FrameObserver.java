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

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sees every data frame of this bus's publications once it is sequenced and handed to the transport, at the start of
 * the bus's next duty cycle: the hook an in-process journal uses to record what was published, while it is in
 * flight rather than before it leaves. Called on the bus's thread, in sequence order; must not block.
 */
@FunctionalInterface
public interface FrameObserver
{
    /**
     * A frame went out.
     *
     * @param publication the publication.
     * @param buffer      the log holding the frame.
     * @param offset      the frame's offset (header first, see {@link io.warpbus.bus.protocol.FrameDescriptor}).
     * @param length      the frame's length.
     */
    void onFrame(Publication publication, UnsafeBuffer buffer, int offset, int length);
}
