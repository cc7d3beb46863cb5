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

/**
 * RDMAP opcodes and the control byte that carries them (RFC 5040 section 4.1 and 4.2).
 * <pre>
 *   0 1 2 3 4 5 6 7
 *  +-+-+-+-+-+-+-+-+
 *  |RV |Rsv| Opcode|    RV: RDMA version, 1 for the IETF protocol
 *  +-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class RdmapOpcode
{
    /** RDMA Write (tagged). */
    public static final int WRITE = 0x0;
    /** RDMA Read Request (untagged, QN 1). */
    public static final int READ_REQUEST = 0x1;
    /** RDMA Read Response (tagged). */
    public static final int READ_RESPONSE = 0x2;
    /** Send (untagged, QN 0). */
    public static final int SEND = 0x3;
    /** Send with Invalidate. */
    public static final int SEND_INVALIDATE = 0x4;
    /** Send with Solicited Event. */
    public static final int SEND_SE = 0x5;
    /** Send with Solicited Event and Invalidate. */
    public static final int SEND_SE_INVALIDATE = 0x6;
    /** Terminate (untagged, QN 2). */
    public static final int TERMINATE = 0x7;
    /** RFC 7306 Immediate Data: recognised, not supported. */
    public static final int IMMEDIATE_DATA = 0x8;
    /** RFC 7306 Immediate Data with Solicited Event: recognised, not supported. */
    public static final int IMMEDIATE_DATA_SE = 0x9;
    /** RFC 7306 Atomic Request: recognised, not supported. */
    public static final int ATOMIC_REQUEST = 0xA;
    /** RFC 7306 Atomic Response: recognised, not supported. */
    public static final int ATOMIC_RESPONSE = 0xB;

    /** RDMAP version of RFC 5040. */
    public static final int VERSION = 1;
    /** Length of the Read Request header. */
    public static final int READ_REQUEST_HEADER_LENGTH = 28;

    private static final String[] NAMES = {
        "RDMA Write", "RDMA Read Request", "RDMA Read Response", "Send", "Send with Invalidate",
        "Send with Solicited Event", "Send with Solicited Event and Invalidate", "Terminate",
        "Immediate Data", "Immediate Data with Solicited Event", "Atomic Request", "Atomic Response" };

    private RdmapOpcode()
    {
    }

    /**
     * The control byte for an opcode.
     *
     * @param opcode one of the constants.
     * @return {@code 0x40 | opcode}.
     */
    public static int control(final int opcode)
    {
        return VERSION << 6 | opcode;
    }

    /**
     * The opcode in a control byte.
     *
     * @param control RDMAP control byte.
     * @return the low four bits.
     */
    public static int opcode(final int control)
    {
        return control & 0x0F;
    }

    /**
     * The RDMA version in a control byte.
     *
     * @param control RDMAP control byte.
     * @return the top two bits.
     */
    public static int version(final int control)
    {
        return (control >> 6) & 0x03;
    }

    /**
     * Is the opcode one of the four Send variants?
     *
     * @param opcode the opcode.
     * @return true for Send, Send with Invalidate, Send with SE, Send with SE and Invalidate.
     */
    public static boolean isSend(final int opcode)
    {
        return opcode >= SEND && opcode <= SEND_SE_INVALIDATE;
    }

    /**
     * Does the Send variant carry an STag to invalidate?
     *
     * @param opcode the opcode.
     * @return true for the two Invalidate variants.
     */
    public static boolean invalidates(final int opcode)
    {
        return SEND_INVALIDATE == opcode || SEND_SE_INVALIDATE == opcode;
    }

    /**
     * Does the Send variant ask for a solicited event?
     *
     * @param opcode the opcode.
     * @return true for the two SE variants.
     */
    public static boolean solicited(final int opcode)
    {
        return SEND_SE == opcode || SEND_SE_INVALIDATE == opcode;
    }

    /**
     * The RFC's name for an opcode.
     *
     * @param opcode the opcode.
     * @return the name, or "opcode 0xN" when unassigned.
     */
    public static String name(final int opcode)
    {
        return opcode >= 0 && opcode < NAMES.length ? NAMES[opcode] : "opcode 0x" + Integer.toHexString(opcode);
    }
}
