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
 * Every error a Terminate message can carry: layer, error type and code from RFC 5040 section 4.8, RFC 5041
 * section 7.2, RFC 5044 section 8 and RFC 6581 section 8 (registered by RFC 6580).
 */
public enum TerminateError
{
    /** RDMAP local catastrophic error. */
    RDMAP_LOCAL_CATASTROPHIC(Layer.RDMAP, 0x0, 0x00, "local catastrophic error"),
    /** RDMAP remote protection: invalid STag. */
    RDMAP_INVALID_STAG(Layer.RDMAP, 0x1, 0x00, "invalid STag"),
    /** RDMAP remote protection: base or bounds violation. */
    RDMAP_BASE_BOUNDS(Layer.RDMAP, 0x1, 0x01, "base or bounds violation"),
    /** RDMAP remote protection: access rights violation. */
    RDMAP_ACCESS_RIGHTS(Layer.RDMAP, 0x1, 0x02, "access rights violation"),
    /** RDMAP remote protection: STag not associated with the RDMAP stream. */
    RDMAP_STAG_NOT_ASSOCIATED(Layer.RDMAP, 0x1, 0x03, "STag not associated with RDMAP stream"),
    /** RDMAP remote protection: tagged offset wraps. */
    RDMAP_TO_WRAP(Layer.RDMAP, 0x1, 0x04, "TO wrap"),
    /** RDMAP remote protection: STag cannot be invalidated (the STag is not ours to invalidate). */
    RDMAP_PROTECTION_CANNOT_INVALIDATE(Layer.RDMAP, 0x1, 0x09, "STag cannot be invalidated"),
    /** RDMAP remote protection: unspecified. */
    RDMAP_PROTECTION_UNSPECIFIED(Layer.RDMAP, 0x1, 0xFF, "unspecified protection error"),
    /** RDMAP remote operation: invalid RDMAP version. */
    RDMAP_INVALID_VERSION(Layer.RDMAP, 0x2, 0x05, "invalid RDMAP version"),
    /** RDMAP remote operation: unexpected opcode. */
    RDMAP_UNEXPECTED_OPCODE(Layer.RDMAP, 0x2, 0x06, "unexpected opcode"),
    /** RDMAP remote operation: catastrophic error localized to the stream. */
    RDMAP_CATASTROPHIC_STREAM(Layer.RDMAP, 0x2, 0x07, "catastrophic error, localized to RDMAP stream"),
    /** RDMAP remote operation: catastrophic error, global. */
    RDMAP_CATASTROPHIC_GLOBAL(Layer.RDMAP, 0x2, 0x08, "catastrophic error, global"),
    /** RDMAP remote operation: STag cannot be invalidated (the region does not allow it). */
    RDMAP_OPERATION_CANNOT_INVALIDATE(Layer.RDMAP, 0x2, 0x09, "STag cannot be invalidated"),
    /** RDMAP remote operation: unspecified. */
    RDMAP_OPERATION_UNSPECIFIED(Layer.RDMAP, 0x2, 0xFF, "unspecified operation error"),

    /** DDP local catastrophic error. */
    DDP_LOCAL_CATASTROPHIC(Layer.DDP, 0x0, 0x00, "local catastrophic error"),
    /** DDP tagged buffer: invalid STag. */
    DDP_TAGGED_INVALID_STAG(Layer.DDP, 0x1, 0x00, "invalid STag"),
    /** DDP tagged buffer: base or bounds violation. */
    DDP_TAGGED_BASE_BOUNDS(Layer.DDP, 0x1, 0x01, "base or bounds violation"),
    /** DDP tagged buffer: STag not associated with the DDP stream. */
    DDP_TAGGED_STAG_NOT_ASSOCIATED(Layer.DDP, 0x1, 0x02, "STag not associated with DDP stream"),
    /** DDP tagged buffer: tagged offset wraps. */
    DDP_TAGGED_TO_WRAP(Layer.DDP, 0x1, 0x03, "TO wrap"),
    /** DDP tagged buffer: invalid DDP version. */
    DDP_TAGGED_INVALID_VERSION(Layer.DDP, 0x1, 0x04, "invalid DDP version"),
    /** DDP untagged buffer: invalid queue number. */
    DDP_UNTAGGED_INVALID_QN(Layer.DDP, 0x2, 0x01, "invalid QN"),
    /** DDP untagged buffer: no buffer available for the MSN. */
    DDP_UNTAGGED_NO_BUFFER(Layer.DDP, 0x2, 0x02, "invalid MSN, no buffer available"),
    /** DDP untagged buffer: MSN out of range. */
    DDP_UNTAGGED_MSN_RANGE(Layer.DDP, 0x2, 0x03, "invalid MSN, MSN range is not valid"),
    /** DDP untagged buffer: invalid message offset. */
    DDP_UNTAGGED_INVALID_MO(Layer.DDP, 0x2, 0x04, "invalid MO"),
    /** DDP untagged buffer: message too long for the buffer. */
    DDP_UNTAGGED_TOO_LONG(Layer.DDP, 0x2, 0x05, "DDP message too long for available buffer"),
    /** DDP untagged buffer: invalid DDP version. */
    DDP_UNTAGGED_INVALID_VERSION(Layer.DDP, 0x2, 0x06, "invalid DDP version"),

    /** MPA: TCP connection closed, terminated or lost. */
    MPA_CONNECTION_LOST(Layer.LLP, 0x0, 0x01, "TCP connection closed, terminated or lost"),
    /** MPA: CRC error. */
    MPA_CRC(Layer.LLP, 0x0, 0x02, "MPA CRC error"),
    /** MPA: marker and ULPDU length mismatch. */
    MPA_MARKER(Layer.LLP, 0x0, 0x03, "MPA marker and ULPDU length mismatch"),
    /** MPA: invalid request or reply frame. */
    MPA_INVALID_FRAME(Layer.LLP, 0x0, 0x04, "invalid MPA request or response frame"),
    /** MPA: local catastrophic error (RFC 6581). */
    MPA_LOCAL_CATASTROPHIC(Layer.LLP, 0x0, 0x05, "local catastrophic error"),
    /** MPA: insufficient IRD resources (RFC 6581). */
    MPA_INSUFFICIENT_IRD(Layer.LLP, 0x0, 0x06, "insufficient IRD resources"),
    /** MPA: no matching RTR option (RFC 6581). */
    MPA_NO_MATCHING_RTR(Layer.LLP, 0x0, 0x07, "no matching RTR option");

    /** The layer that detected the error, the high nibble of the Terminate's first byte. */
    public enum Layer
    {
        /** RDMAP, layer 0. */
        RDMAP,
        /** DDP, layer 1. */
        DDP,
        /** The lower layer protocol, MPA over TCP, layer 2. */
        LLP
    }

    private static final TerminateError[] VALUES = values();

    private final Layer layer;
    private final int errorType;
    private final int code;
    private final String description;

    TerminateError(final Layer layer, final int errorType, final int code, final String description)
    {
        this.layer = layer;
        this.errorType = errorType;
        this.code = code;
        this.description = description;
    }

    /**
     * The layer.
     *
     * @return the layer.
     */
    public Layer layer()
    {
        return layer;
    }

    /**
     * Error type (EType) within the layer.
     *
     * @return 0 to 15.
     */
    public int errorType()
    {
        return errorType;
    }

    /**
     * Error code within the type.
     *
     * @return 0 to 255.
     */
    public int code()
    {
        return code;
    }

    /**
     * The RFC's wording of the error.
     *
     * @return description.
     */
    public String description()
    {
        return description;
    }

    /**
     * Does RFC 5040 section 4.8 (Figure 10) have the Terminate carry the offending DDP header for this error?
     *
     * @return true for DDP errors and RDMAP remote protection and operation errors.
     */
    public boolean carriesDdpHeader()
    {
        return Layer.DDP == layer ? DDP_LOCAL_CATASTROPHIC != this : Layer.RDMAP == layer && 0 != errorType;
    }

    /**
     * Find the error a Terminate names.
     *
     * @param layer     layer number.
     * @param errorType EType.
     * @param code      error code.
     * @return the error, or null for a combination no RFC defines.
     */
    public static TerminateError find(final int layer, final int errorType, final int code)
    {
        for (final TerminateError error : VALUES)
        {
            if (error.layer.ordinal() == layer && error.errorType == errorType &&
                (error.code == code || (RDMAP_LOCAL_CATASTROPHIC == error && 0 == layer && 0 == errorType)))
            {
                return error;
            }
        }
        return null;
    }

    /**
     * Human-readable form, naming layer, type and code.
     *
     * @return e.g. {@code DDP tagged buffer error 0x01: base or bounds violation}.
     */
    public String describe()
    {
        return layer + " error (type 0x" + Integer.toHexString(errorType) + ", code 0x" +
            Integer.toHexString(code) + "): " + description;
    }
}
