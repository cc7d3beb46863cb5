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
package io.warpbus.iwarp.mpa;

/**
 * Whether FPDUs carry a CRC32C, negotiated by the C flags of the MPA exchange (RFC 5044 sections 4.4 and 7.1.1).
 * <p>
 * CRC is used on a connection when the Request or the Reply has C=1, so either side can insist on it. The policy
 * decides what this side puts in its frame.
 */
public enum CrcPolicy
{
    /**
     * Always C=1: CRC is used on every connection, whatever the peer asked for.
     */
    REQUIRED,
    /**
     * C=1 in a Request; as responder, follow the initiator (a peer that asks for no CRC, as Linux siw does by
     * default, gets none).
     */
    PREFERRED,
    /**
     * C=0 in a Request; as responder, follow the initiator. CRC is then used only when the peer asks for it.
     */
    OFF;

    /**
     * The C flag to put in a Request.
     *
     * @return true to ask for CRC.
     */
    public boolean requestFlag()
    {
        return OFF != this;
    }

    /**
     * The C flag to put in a Reply.
     *
     * @param initiatorWantsCrc the C flag of the Request.
     * @return true to ask for CRC.
     */
    public boolean replyFlag(final boolean initiatorWantsCrc)
    {
        return REQUIRED == this || initiatorWantsCrc;
    }
}
