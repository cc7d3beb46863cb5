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
 * How the engine's duty cycle gets a thread.
 */
public enum ThreadingMode
{
    /** The engine runs its agent on its own thread with the configured idle strategy. */
    DEDICATED,
    /** The engine's agent is handed to the caller ({@link Rnic#agent()}), to be composed with other agents. */
    SHARED,
    /**
     * The application calls {@link Rnic#doWork()} from its own thread: the lowest-latency mode, with no thread
     * hand-off at all. Every call into the engine must then come from that thread.
     */
    INVOKER
}
