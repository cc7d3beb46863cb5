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
package io.warpbus.gateway.fix;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The FIX acceptor's configuration, {@code warpbus.gateway.fix.*} (every property in docs/fix.md).
 *
 * @param port           where the acceptor listens; 0 for any free port, -1 for no FIX acceptor.
 * @param address        the address it binds.
 * @param storeDirectory QuickFIX/J's file store and the adapter's per-session state; default
 *                       {@code <warpbus.gateway.journal.directory>/fix}.
 * @param logonTimeout   how long a logon waits for the session core's answer before it is refused.
 * @param sessions       the FIX sessions the acceptor knows: a logon from any other pair of CompIDs is dropped.
 */
@ConfigurationProperties("warpbus.gateway.fix")
public record FixProperties(
    @DefaultValue("-1") int port,
    @DefaultValue("0.0.0.0") String address,
    Path storeDirectory,
    @DefaultValue("5s") Duration logonTimeout,
    @DefaultValue List<Session> sessions)
{
    /**
     * One FIX session, named from the client's side as its messages carry the CompIDs.
     *
     * @param senderCompId the client's SenderCompID (49).
     * @param targetCompId the gateway's CompID, the client's TargetCompID (56).
     * @param type         what the session may do.
     */
    public record Session(String senderCompId, @DefaultValue("WARPBUS") String targetCompId,
        @DefaultValue("order-entry") String type)
    {
    }
}
