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

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TerminateErrorTest
{
    /** RFC 5040 Figure 10: RDMAP remote protection and remote operation errors, and DDP errors. */
    private static final Set<TerminateError> CARRIES_DDP_HEADER = EnumSet.of(
        TerminateError.RDMAP_INVALID_STAG,
        TerminateError.RDMAP_BASE_BOUNDS,
        TerminateError.RDMAP_ACCESS_RIGHTS,
        TerminateError.RDMAP_STAG_NOT_ASSOCIATED,
        TerminateError.RDMAP_TO_WRAP,
        TerminateError.RDMAP_PROTECTION_CANNOT_INVALIDATE,
        TerminateError.RDMAP_PROTECTION_UNSPECIFIED,
        TerminateError.RDMAP_INVALID_VERSION,
        TerminateError.RDMAP_UNEXPECTED_OPCODE,
        TerminateError.RDMAP_CATASTROPHIC_STREAM,
        TerminateError.RDMAP_CATASTROPHIC_GLOBAL,
        TerminateError.RDMAP_OPERATION_CANNOT_INVALIDATE,
        TerminateError.RDMAP_OPERATION_UNSPECIFIED,
        TerminateError.DDP_TAGGED_INVALID_STAG,
        TerminateError.DDP_TAGGED_BASE_BOUNDS,
        TerminateError.DDP_TAGGED_STAG_NOT_ASSOCIATED,
        TerminateError.DDP_TAGGED_TO_WRAP,
        TerminateError.DDP_TAGGED_INVALID_VERSION,
        TerminateError.DDP_UNTAGGED_INVALID_QN,
        TerminateError.DDP_UNTAGGED_NO_BUFFER,
        TerminateError.DDP_UNTAGGED_MSN_RANGE,
        TerminateError.DDP_UNTAGGED_INVALID_MO,
        TerminateError.DDP_UNTAGGED_TOO_LONG,
        TerminateError.DDP_UNTAGGED_INVALID_VERSION);

    /** RFC 5040 Figure 10: local catastrophic errors and LLP errors. */
    private static final Set<TerminateError> CARRIES_NO_HEADER = EnumSet.of(
        TerminateError.RDMAP_LOCAL_CATASTROPHIC,
        TerminateError.DDP_LOCAL_CATASTROPHIC,
        TerminateError.MPA_CONNECTION_LOST,
        TerminateError.MPA_CRC,
        TerminateError.MPA_MARKER,
        TerminateError.MPA_INVALID_FRAME,
        TerminateError.MPA_LOCAL_CATASTROPHIC,
        TerminateError.MPA_INSUFFICIENT_IRD,
        TerminateError.MPA_NO_MATCHING_RTR);

    @ParameterizedTest(name = "{0} = layer {1}, type {2}, code {3}")
    @CsvSource({
        "RDMAP_LOCAL_CATASTROPHIC, 0, 0x0, 0x00",
        "RDMAP_INVALID_STAG, 0, 0x1, 0x00",
        "RDMAP_BASE_BOUNDS, 0, 0x1, 0x01",
        "RDMAP_ACCESS_RIGHTS, 0, 0x1, 0x02",
        "RDMAP_STAG_NOT_ASSOCIATED, 0, 0x1, 0x03",
        "RDMAP_TO_WRAP, 0, 0x1, 0x04",
        "RDMAP_PROTECTION_CANNOT_INVALIDATE, 0, 0x1, 0x09",
        "RDMAP_PROTECTION_UNSPECIFIED, 0, 0x1, 0xFF",
        "RDMAP_INVALID_VERSION, 0, 0x2, 0x05",
        "RDMAP_UNEXPECTED_OPCODE, 0, 0x2, 0x06",
        "RDMAP_CATASTROPHIC_STREAM, 0, 0x2, 0x07",
        "RDMAP_CATASTROPHIC_GLOBAL, 0, 0x2, 0x08",
        "RDMAP_OPERATION_CANNOT_INVALIDATE, 0, 0x2, 0x09",
        "RDMAP_OPERATION_UNSPECIFIED, 0, 0x2, 0xFF",
        "DDP_LOCAL_CATASTROPHIC, 1, 0x0, 0x00",
        "DDP_TAGGED_INVALID_STAG, 1, 0x1, 0x00",
        "DDP_TAGGED_BASE_BOUNDS, 1, 0x1, 0x01",
        "DDP_TAGGED_STAG_NOT_ASSOCIATED, 1, 0x1, 0x02",
        "DDP_TAGGED_TO_WRAP, 1, 0x1, 0x03",
        "DDP_TAGGED_INVALID_VERSION, 1, 0x1, 0x04",
        "DDP_UNTAGGED_INVALID_QN, 1, 0x2, 0x01",
        "DDP_UNTAGGED_NO_BUFFER, 1, 0x2, 0x02",
        "DDP_UNTAGGED_MSN_RANGE, 1, 0x2, 0x03",
        "DDP_UNTAGGED_INVALID_MO, 1, 0x2, 0x04",
        "DDP_UNTAGGED_TOO_LONG, 1, 0x2, 0x05",
        "DDP_UNTAGGED_INVALID_VERSION, 1, 0x2, 0x06",
        "MPA_CONNECTION_LOST, 2, 0x0, 0x01",
        "MPA_CRC, 2, 0x0, 0x02",
        "MPA_MARKER, 2, 0x0, 0x03",
        "MPA_INVALID_FRAME, 2, 0x0, 0x04",
        "MPA_LOCAL_CATASTROPHIC, 2, 0x0, 0x05",
        "MPA_INSUFFICIENT_IRD, 2, 0x0, 0x06",
        "MPA_NO_MATCHING_RTR, 2, 0x0, 0x07" })
    void shouldCarryRfcLayerTypeAndCode(
        final TerminateError error, final int layer, final String errorType, final String code)
    {
        assertEquals(layer, error.layer().ordinal(), "layer");
        assertEquals(Integer.decode(errorType).intValue(), error.errorType(), "EType");
        assertEquals(Integer.decode(code).intValue(), error.code(), "code");
    }

    @Test
    void shouldNumberLayersAsRfc5040Does()
    {
        assertEquals(0, TerminateError.Layer.RDMAP.ordinal());
        assertEquals(1, TerminateError.Layer.DDP.ordinal());
        assertEquals(2, TerminateError.Layer.LLP.ordinal());
    }

    @ParameterizedTest
    @EnumSource(TerminateError.class)
    void shouldFindEveryErrorByItsOwnLayerTypeAndCode(final TerminateError error)
    {
        assertSame(error, TerminateError.find(error.layer().ordinal(), error.errorType(), error.code()));
    }

    @ParameterizedTest(name = "code {0}")
    @ValueSource(ints = { 0x00, 0x01, 0x05, 0x7F, 0x80, 0xFF })
    void shouldFindRdmapLocalCatastrophicForAnyCode(final int code)
    {
        assertSame(TerminateError.RDMAP_LOCAL_CATASTROPHIC, TerminateError.find(0, 0, code));
    }

    @ParameterizedTest(name = "layer {0}, type {1}, code {2}")
    @CsvSource({
        "0, 1, 5",
        "0, 1, 254",
        "0, 2, 0",
        "0, 2, 4",
        "0, 3, 0",
        "0, 15, 255",
        "1, 0, 1",
        "1, 1, 5",
        "1, 2, 0",
        "1, 2, 7",
        "1, 3, 0",
        "2, 0, 0",
        "2, 0, 8",
        "2, 1, 1",
        "3, 0, 0",
        "15, 15, 255" })
    void shouldFindNothingForCombinationNoRfcDefines(final int layer, final int errorType, final int code)
    {
        assertNull(TerminateError.find(layer, errorType, code));
    }

    @Test
    void shouldClassifyEveryErrorForFigureTen()
    {
        assertEquals(TerminateError.values().length, CARRIES_DDP_HEADER.size() + CARRIES_NO_HEADER.size());
    }

    @ParameterizedTest
    @EnumSource(TerminateError.class)
    void shouldCarryDdpHeaderExactlyWhenFigureTenSaysSo(final TerminateError error)
    {
        assertTrue(CARRIES_DDP_HEADER.contains(error) ^ CARRIES_NO_HEADER.contains(error), "listed once");
        assertEquals(CARRIES_DDP_HEADER.contains(error), error.carriesDdpHeader());
    }

    @Test
    void shouldNotCarryDdpHeaderForRdmapLocalCatastrophic()
    {
        assertFalse(TerminateError.RDMAP_LOCAL_CATASTROPHIC.carriesDdpHeader());
    }

    @Test
    void shouldCarryDdpHeaderForDdpTaggedError()
    {
        assertTrue(TerminateError.DDP_TAGGED_BASE_BOUNDS.carriesDdpHeader());
    }

    @Test
    void shouldDescribeLayerTypeCodeAndWording()
    {
        assertEquals("DDP error (type 0x1, code 0x1): base or bounds violation",
            TerminateError.DDP_TAGGED_BASE_BOUNDS.describe());
        assertEquals("LLP error (type 0x0, code 0x6): insufficient IRD resources",
            TerminateError.MPA_INSUFFICIENT_IRD.describe());
        assertEquals("RDMAP error (type 0x1, code 0xff): unspecified protection error",
            TerminateError.RDMAP_PROTECTION_UNSPECIFIED.describe());
    }
}
