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
package io.warpbus.iwarp;

/**
 * Access rights of a {@link MemoryRegion}, combined with bitwise or.
 * <p>
 * Local read access is always granted. A remote peer can touch a region only with an STag for it and only with the
 * rights given here: {@link #REMOTE_WRITE} for RDMA Write, {@link #REMOTE_READ} for the source of an RDMA Read.
 */
public final class Access
{
    /**
     * The local queue pair may write into the region: receive buffers and RDMA Read sinks need this.
     */
    public static final int LOCAL_WRITE = 1;

    /**
     * A remote peer may read the region with RDMA Read.
     */
    public static final int REMOTE_READ = 2;

    /**
     * A remote peer may write the region with RDMA Write.
     */
    public static final int REMOTE_WRITE = 4;

    /**
     * A remote peer may invalidate the region's STag with Send with Invalidate.
     */
    public static final int REMOTE_INVALIDATE = 8;

    /**
     * Tagged offsets start at zero instead of at the region's memory address.
     */
    public static final int ZERO_BASED = 16;

    static final int ALL = LOCAL_WRITE | REMOTE_READ | REMOTE_WRITE | REMOTE_INVALIDATE | ZERO_BASED;

    private Access()
    {
    }

    /**
     * Does the access mask grant every right in {@code required}?
     *
     * @param access   the region's access mask.
     * @param required the rights needed.
     * @return true when all of them are granted.
     */
    public static boolean allows(final int access, final int required)
    {
        return (access & required) == required;
    }

    /**
     * Human-readable form, e.g. {@code LOCAL_WRITE|REMOTE_WRITE}.
     *
     * @param access the mask.
     * @return the names of the rights it grants, or {@code LOCAL_READ} when it grants nothing else.
     */
    public static String toString(final int access)
    {
        final StringBuilder sb = new StringBuilder();
        append(sb, access, LOCAL_WRITE, "LOCAL_WRITE");
        append(sb, access, REMOTE_READ, "REMOTE_READ");
        append(sb, access, REMOTE_WRITE, "REMOTE_WRITE");
        append(sb, access, REMOTE_INVALIDATE, "REMOTE_INVALIDATE");
        append(sb, access, ZERO_BASED, "ZERO_BASED");
        return sb.length() == 0 ? "LOCAL_READ" : sb.toString();
    }

    private static void append(final StringBuilder sb, final int access, final int flag, final String name)
    {
        if ((access & flag) != 0)
        {
            if (sb.length() > 0)
            {
                sb.append('|');
            }
            sb.append(name);
        }
    }
}
