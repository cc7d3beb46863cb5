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

/**
 * What happened to a price level in an L2 book update. The codes equal the values of the market-data schema's
 * {@code UpdateAction} enum.
 */
public enum BookAction
{
    /**
     * A new price level.
     */
    ADD(0),

    /**
     * New quantity or order count at an existing level.
     */
    CHANGE(1),

    /**
     * The level is gone; its price (and depth before removal) identify it.
     */
    DELETE(2);

    private static final BookAction[] BY_CODE = { ADD, CHANGE, DELETE };

    private final int code;

    BookAction(final int code)
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
     * Look up an action by its code without allocating.
     *
     * @param code as returned by {@link #code()}.
     * @return the action, or {@code null} if the code is unknown.
     */
    public static BookAction get(final int code)
    {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
