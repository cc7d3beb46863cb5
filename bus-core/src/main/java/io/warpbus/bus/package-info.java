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
/**
 * The bus: {@link io.warpbus.bus.Bus} with its {@link io.warpbus.bus.BusContext}, {@link io.warpbus.bus.Publication}s
 * that place each message once in a log and send it to every subscriber's ring by RDMA Write (over IPC, subscribers
 * read the log itself in shared memory), and {@link io.warpbus.bus.Subscription}s that poll them. Flow control,
 * slow-consumer policies, sequence gaps, resuming from the publisher's retained log and heartbeats live here; the
 * frame and handshake formats are in {@code io.warpbus.bus.protocol}.
 */
package io.warpbus.bus;
