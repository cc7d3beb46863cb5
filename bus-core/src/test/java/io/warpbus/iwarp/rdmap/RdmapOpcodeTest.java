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
package io.warpbus.iwarp.rdmap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RdmapOpcodeTest
{
    @ParameterizedTest(name = "opcode {0}: control {1}, {2}")
    @CsvSource({
        "0x0, 0x40, RDMA Write, false, false, false",
        "0x1, 0x41, RDMA Read Request, false, false, false",
        "0x2, 0x42, RDMA Read Response, false, false, false",
        "0x3, 0x43, Send, true, false, false",
        "0x4, 0x44, Send with Invalidate, true, true, false",
        "0x5, 0x45, Send with Solicited Event, true, false, true",
        "0x6, 0x46, Send with Solicited Event and Invalidate, true, true, true",
        "0x7, 0x47, Terminate, false, false, false",
        "0x8, 0x48, Immediate Data, false, false, false",
        "0x9, 0x49, Immediate Data with Solicited Event, false, false, false",
        "0xA, 0x4A, Atomic Request, false, false, false",
        "0xB, 0x4B, Atomic Response, false, false, false" })
    void shouldDescribeEveryOpcode(
        final String opcodeText,
        final String controlText,
        final String name,
        final boolean send,
        final boolean invalidates,
        final boolean solicited)
    {
        final int opcode = Integer.decode(opcodeText);
        final int control = Integer.decode(controlText);

        assertEquals(control, RdmapOpcode.control(opcode), "control byte");
        assertEquals(opcode, RdmapOpcode.opcode(control), "opcode");
        assertEquals(1, RdmapOpcode.version(control), "version");
        assertEquals(name, RdmapOpcode.name(opcode), "name");
        assertEquals(send, RdmapOpcode.isSend(opcode), "isSend");
        assertEquals(invalidates, RdmapOpcode.invalidates(opcode), "invalidates");
        assertEquals(solicited, RdmapOpcode.solicited(opcode), "solicited");
    }

    @Test
    void shouldUseRfc5040OpcodeValues()
    {
        assertEquals(0x0, RdmapOpcode.WRITE);
        assertEquals(0x1, RdmapOpcode.READ_REQUEST);
        assertEquals(0x2, RdmapOpcode.READ_RESPONSE);
        assertEquals(0x3, RdmapOpcode.SEND);
        assertEquals(0x4, RdmapOpcode.SEND_INVALIDATE);
        assertEquals(0x5, RdmapOpcode.SEND_SE);
        assertEquals(0x6, RdmapOpcode.SEND_SE_INVALIDATE);
        assertEquals(0x7, RdmapOpcode.TERMINATE);
        assertEquals(0x8, RdmapOpcode.IMMEDIATE_DATA);
        assertEquals(0x9, RdmapOpcode.IMMEDIATE_DATA_SE);
        assertEquals(0xA, RdmapOpcode.ATOMIC_REQUEST);
        assertEquals(0xB, RdmapOpcode.ATOMIC_RESPONSE);
        assertEquals(1, RdmapOpcode.VERSION);
        assertEquals(28, RdmapOpcode.READ_REQUEST_HEADER_LENGTH);
    }

    @ParameterizedTest(name = "control {0}: RV {1}, opcode {2}")
    @CsvSource({ "0x03, 0, 3", "0x73, 1, 3", "0x8f, 2, 15", "0xc5, 3, 5", "0x7f, 1, 15", "0x30, 0, 0" })
    void shouldSplitControlByteIgnoringReservedBits(final String controlText, final int version, final int opcode)
    {
        final int control = Integer.decode(controlText);

        assertEquals(version, RdmapOpcode.version(control), "RV");
        assertEquals(opcode, RdmapOpcode.opcode(control), "opcode");
    }

    @ParameterizedTest(name = "opcode {0}")
    @CsvSource({ "12, opcode 0xc", "15, opcode 0xf", "255, opcode 0xff", "-1, opcode 0xffffffff" })
    void shouldNameUnassignedOpcodeByNumber(final int opcode, final String name)
    {
        assertEquals(name, RdmapOpcode.name(opcode));
    }
}
