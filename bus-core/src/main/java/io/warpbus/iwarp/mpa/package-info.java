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
 * MPA, Marker PDU Aligned framing for TCP (RFC 5044, with the enhanced connection setup of RFC 6581): the
 * request/reply exchange that starts a connection, and FPDU framing (length, padding, CRC32C) once it runs.
 * <p>
 * The engine never sends markers (M=0 always); a peer that demands them is refused with a clear reason.
 * Everything here is a flyweight or a pure function over a buffer: no I/O, no state beyond one frame.
 */
package io.warpbus.iwarp.mpa;
