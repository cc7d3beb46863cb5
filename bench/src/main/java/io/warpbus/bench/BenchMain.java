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
package io.warpbus.bench;

import java.util.Arrays;

import io.warpbus.bench.bus.BusBench;
import io.warpbus.bench.gateway.GatewayBench;
import io.warpbus.bench.journal.JournalBench;
import io.warpbus.bench.matching.MatchingBench;
import io.warpbus.bench.rdma.RdmaBench;

/**
 * {@code warpbus bench <suite> [--quick]}.
 */
public final class BenchMain
{
    private BenchMain()
    {
    }

    /**
     * Run a suite.
     *
     * @param args suite name then its options.
     * @throws Exception when the suite fails.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length == 0)
        {
            usage();
            System.exit(2);
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0])
        {
            case "rdma":
                RdmaBench.main(rest);
                break;
            case "bus":
                BusBench.main(rest);
                break;
            case "journal":
                JournalBench.main(rest);
                break;
            case "matching":
                MatchingBench.main(rest);
                break;
            case "gateway":
                GatewayBench.main(rest);
                break;
            default:
                System.err.println("unknown benchmark suite '" + args[0] + "'");
                usage();
                System.exit(2);
        }
    }

    private static void usage()
    {
        System.err.println("usage: warpbus bench rdma|bus [--quick] [--case REGEX]    warpbus bench journal [--quick]" +
            "    warpbus bench matching [--quick] [--rate COMMANDS_PER_S]    warpbus bench gateway [--quick] " +
            "[--sessions N] [--ordering N] [--rate ORDERS_PER_S] [--protocol ws|fix]");
    }
}
