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
package io.warpbus.matching;

import io.warpbus.orderentry.RejectReason;

/**
 * What the engine does when an incoming order would trade with a resting order of the same account. Nothing trades
 * with itself under either policy; fills against other accounts that came before the self-match stand.
 */
public enum SelfTradePrevention
{
    /**
     * Cancel the resting order (reason {@link RejectReason#SELF_TRADE_PREVENTED}) and keep matching the incoming one:
     * the account's newest instruction wins, which suits market makers refreshing their quotes. The default.
     */
    CANCEL_RESTING(0),

    /**
     * Cancel what is left of the incoming order (reason {@link RejectReason#SELF_TRADE_PREVENTED}) and leave the
     * resting order alone: what is already in the book keeps its place.
     */
    CANCEL_AGGRESSOR(1);

    private static final SelfTradePrevention[] BY_CODE = { CANCEL_RESTING, CANCEL_AGGRESSOR };

    private final int code;

    SelfTradePrevention(final int code)
    {
        this.code = code;
    }

    /**
     * Stable numeric code, never reused.
     *
     * @return the code.
     */
    public int code()
    {
        return code;
    }

    /**
     * Look up a policy by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the policy, or {@code null} if the code is unknown.
     */
    public static SelfTradePrevention get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
