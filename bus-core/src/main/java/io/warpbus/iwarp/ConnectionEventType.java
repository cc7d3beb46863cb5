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
package io.warpbus.iwarp;

/**
 * Kinds of {@link ConnectionEvent}, after rdma_cm's events.
 */
public enum ConnectionEventType
{
    /** A peer's MPA Request arrived at a listener: accept or reject it. */
    CONNECT_REQUEST,
    /** The connection is in full operation: work requests flow. */
    ESTABLISHED,
    /** The responder rejected the connection; its private data (often a reason) is in the event. */
    REJECTED,
    /** The connection could not be made: unreachable, refused, timed out, or a malformed MPA exchange. */
    CONNECT_ERROR,
    /** An established connection ended: gracefully, by a Terminate, or by a transport error. */
    DISCONNECTED
}
