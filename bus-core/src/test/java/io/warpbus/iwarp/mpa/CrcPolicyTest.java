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

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CrcPolicyTest
{
    @ParameterizedTest(name = "{0} requests C={1}")
    @CsvSource({ "REQUIRED, true", "PREFERRED, true", "OFF, false" })
    void shouldAskForCrcInRequestUnlessOff(final CrcPolicy policy, final boolean flag)
    {
        assertEquals(flag, policy.requestFlag());
    }

    @ParameterizedTest(name = "{0} replies C={2} to C={1}")
    @CsvSource({
        "REQUIRED, false, true",
        "REQUIRED, true, true",
        "PREFERRED, false, false",
        "PREFERRED, true, true",
        "OFF, false, false",
        "OFF, true, true" })
    void shouldFollowInitiatorInReplyUnlessRequired(
        final CrcPolicy policy, final boolean initiatorWantsCrc, final boolean flag)
    {
        assertEquals(flag, policy.replyFlag(initiatorWantsCrc));
    }
}
