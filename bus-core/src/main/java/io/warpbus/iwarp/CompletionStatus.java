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
 * Outcome of a work request, as reported in its {@link WorkCompletion}. Names follow the verbs API.
 */
public enum CompletionStatus
{
    /** The operation completed. */
    SUCCESS,
    /** A received Send was longer than the posted receive buffer. */
    LOCAL_LENGTH_ERROR,
    /** The local buffer of the work request was invalid, deregistered, out of bounds or lacked rights. */
    LOCAL_PROTECTION_ERROR,
    /** The queue pair failed while the request was being processed. */
    LOCAL_QP_OPERATION_ERROR,
    /** The queue pair left the connected state before the request was processed. */
    WORK_REQUEST_FLUSHED,
    /** The peer refused the access: invalid STag, bounds or rights violation. */
    REMOTE_ACCESS_ERROR,
    /** The peer failed to process the request (for example it had no receive buffer posted). */
    REMOTE_OPERATION_ERROR,
    /** The peer found the request malformed or unsupported. */
    REMOTE_INVALID_REQUEST,
    /** A protocol error on the connection (bad CRC, framing, version, sequence). */
    FATAL_ERROR
}
