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
 * What a publication does about a subscriber that does not keep up. Chosen per subscription.
 */
public enum SlowConsumerPolicy
{
    /** The subscriber limits the publisher: {@link Publication#offer} returns {@link Publication#BACK_PRESSURED}. */
    BLOCK,
    /**
     * The subscriber never holds the publisher back; once it lags beyond its threshold it is disconnected, and it
     * resumes from the publisher's retained log or, beyond that, learns of the gap (the journal can fill it).
     */
    DROP,
    /**
     * The subscriber never holds the publisher back; while it lags, it receives only the latest message for each
     * conflation key of the publication (the publication must declare where the key is). Skipped messages are
     * counted, not reported as gaps.
     */
    CONFLATE;

    private static final SlowConsumerPolicy[] VALUES = values();

    /**
     * The policy for a wire code.
     *
     * @param code from a subscribe request.
     * @return the policy, or null for an unknown code.
     */
    public static SlowConsumerPolicy fromCode(final int code)
    {
        return code >= 0 && code < VALUES.length ? VALUES[code] : null;
    }
}
