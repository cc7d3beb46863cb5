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
 * The bus's own formats: the data frame every message travels in, the metadata block at the end of a subscriber's
 * ring, and the subscribe request and reply carried in the MPA private data of an iWARP connection. Flyweights
 * and constants over Agrona buffers; no I/O.
 */
package io.warpbus.bus.protocol;
