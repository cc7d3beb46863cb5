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
package io.warpbus.gateway.client;

import java.util.concurrent.TimeUnit;

/**
 * The clients' clock for deadlines and intervals: monotonic milliseconds, which a step of the wall clock (NTP) does
 * not move, so that a step neither ends a reconnect early nor holds back a heartbeat. Wall-clock time is for what
 * goes on the wire (a logon's signed timestamp) only.
 */
final class Elapsed
{
    private Elapsed()
    {
    }

    /**
     * Milliseconds from an arbitrary origin, comparable only with other values of this method in this JVM.
     *
     * @return the time.
     */
    static long ms()
    {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime());
    }
}
