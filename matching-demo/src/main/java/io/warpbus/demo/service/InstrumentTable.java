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
package io.warpbus.demo.service;

import io.warpbus.matching.Instrument;
import org.agrona.collections.Int2IntHashMap;

/**
 * The engine service's view of its instruments: dense index by id, lot size for converting the wire's lots to the
 * core's units and back, and each instrument's market-data sequence. Lookups allocate nothing.
 */
final class InstrumentTable
{
    static final int MISSING = -1;

    private final Instrument[] instruments;
    private final Int2IntHashMap indexById = new Int2IntHashMap(MISSING);
    private final long[] lotSizes;
    private final long[] sequences;

    InstrumentTable(final Instrument[] instruments)
    {
        this.instruments = instruments.clone();
        lotSizes = new long[instruments.length];
        sequences = new long[instruments.length];
        for (int i = 0; i < instruments.length; i++)
        {
            indexById.put(instruments[i].id(), i);
            lotSizes[i] = instruments[i].lotSize();
        }
    }

    int count()
    {
        return instruments.length;
    }

    int index(final int instrumentId)
    {
        return indexById.get(instrumentId);
    }

    Instrument instrument(final int index)
    {
        return instruments[index];
    }

    /**
     * Lot size of an instrument, 1 for an unknown one (whose orders the engine rejects anyway).
     */
    long lotSize(final int instrumentId)
    {
        final int index = indexById.get(instrumentId);
        return MISSING == index ? 1 : lotSizes[index];
    }

    long nextSequence(final int index)
    {
        return ++sequences[index];
    }

    long sequence(final int index)
    {
        return sequences[index];
    }

    void sequence(final int index, final long sequence)
    {
        sequences[index] = sequence;
    }
}
