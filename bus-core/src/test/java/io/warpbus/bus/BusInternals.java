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
 * What tests in other packages may read of a bus's insides. Call it on the bus's thread (an invoked bus).
 */
public final class BusInternals
{
    private BusInternals()
    {
    }

    /**
     * Replay logs the bus keeps for the next replays ({@link ReplayLogs}).
     *
     * @param bus the bus.
     * @return how many.
     */
    public static int replayLogsKept(final Bus bus)
    {
        return bus.conductor().replayLogs().keptCount();
    }
}
