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
package io.warpbus.gateway.config;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class StartupCollectionTest
{
    @Test
    void shouldCollectTheWholeHeapOnceTheGatewayIsReady()
    {
        final long before = collections();

        new GatewayConfiguration().startupCollection().onApplicationEvent(null);

        assertTrue(collections() > before, "a collection ran: " + before + " before, " + collections() + " after");
    }

    private static long collections()
    {
        long count = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans())
        {
            count += Math.max(0, collector.getCollectionCount());
        }
        return count;
    }
}
