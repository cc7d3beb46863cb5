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
 * DDP, Direct Data Placement (RFC 5041): the tagged model (STag and tagged offset, placed straight into a
 * registered region) and the untagged model (queue number, message sequence number and message offset, placed
 * into a posted receive buffer), with their header flyweights and error codes.
 */
package io.warpbus.iwarp.ddp;
