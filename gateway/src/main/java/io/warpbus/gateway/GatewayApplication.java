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
package io.warpbus.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The WarpBus gateway: a Spring Boot service owning client sessions (WebSocket JSON) in front of the matching
 * engine, over the bus. {@code ./warpbus gateway} runs it; docs/gateway.md describes the protocol and configuration.
 */
@SpringBootApplication(proxyBeanMethods = false)
@SuppressWarnings("checkstyle:HideUtilityClassConstructor")
public class GatewayApplication
{
    /**
     * Run the gateway.
     *
     * @param args Spring Boot arguments ({@code --warpbus.gateway.name=...}).
     */
    public static void main(final String[] args)
    {
        SpringApplication.run(GatewayApplication.class, args);
    }
}
