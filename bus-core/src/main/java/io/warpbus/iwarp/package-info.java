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
 * The verbs-style API of WarpBus's software RNIC: {@link io.warpbus.iwarp.Rnic} (the busy-polled engine),
 * {@link io.warpbus.iwarp.ProtectionDomain}, {@link io.warpbus.iwarp.MemoryRegion} (STag, bounds, rights),
 * {@link io.warpbus.iwarp.QueuePair}, {@link io.warpbus.iwarp.CompletionQueue} and the rdma_cm-like
 * {@link io.warpbus.iwarp.ConnectionManager}. Underneath, the engine speaks RDMAP over DDP over MPA over TCP
 * (RFC 5040, 5041, 5044, 6581), putting on the wire the bytes an iWARP RNIC or Linux soft-iWARP would.
 */
package io.warpbus.iwarp;
