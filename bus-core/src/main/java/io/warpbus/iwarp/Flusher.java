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
 * Completes the work requests left on a queue pair whose connection has ended: requests already handed to TCP
 * keep their outcome, the rest complete with {@link CompletionStatus#WORK_REQUEST_FLUSHED}. Runs on the engine's
 * thread, as far as the completion queues have room, and is called again until it is done.
 */
final class Flusher
{
    private Flusher()
    {
    }

    /**
     * Flush what the completion queues have room for.
     *
     * @param qp the queue pair.
     * @return true when nothing is left.
     */
    static boolean flush(final QueuePair qp)
    {
        final CompletionQueue sendCq = qp.sendCompletionQueue;
        long sqHead = qp.sqHead.getPlain();
        final long sqTail = qp.sqTail.get();
        while (sqHead < sqTail)
        {
            final int slot = (int)sqHead & qp.sqMask;
            final CompletionStatus status = sqHead < qp.sqFinalized && null != qp.sqStatus[slot] ?
                qp.sqStatus[slot] : CompletionStatus.WORK_REQUEST_FLUSHED;
            if (CompletionStatus.SUCCESS != status || (qp.sqFlags[slot] & QueuePair.SIGNALED) != 0)
            {
                if (!sendCq.hasCapacity(1))
                {
                    break;
                }
                sendCq.add(qp.sqWrId[slot], completionOpcode(qp.sqOpcode[slot]), status,
                    CompletionStatus.SUCCESS == status ? qp.sqLength[slot] : 0, qp.number, 0, 0);
            }
            qp.sqStatus[slot] = null;
            qp.sqRegion[slot] = null;
            sqHead++;
            qp.sqHead.lazySet(sqHead);
        }

        final CompletionQueue recvCq = qp.receiveCompletionQueue;
        long rqHead = qp.rqHead.getPlain();
        final long rqTail = qp.rqTail.get();
        while (rqHead < rqTail)
        {
            if (!recvCq.hasCapacity(1))
            {
                break;
            }
            final int slot = (int)rqHead & qp.rqMask;
            recvCq.add(qp.rqWrId[slot], CompletionOpcode.RECV, CompletionStatus.WORK_REQUEST_FLUSHED, 0, qp.number,
                0, 0);
            qp.rqRegion[slot] = null;
            rqHead++;
            qp.rqHead.lazySet(rqHead);
        }
        return sqHead == qp.sqTail.get() && rqHead == qp.rqTail.get();
    }

    static CompletionOpcode completionOpcode(final byte opcode)
    {
        switch (opcode)
        {
            case QueuePair.OP_WRITE:
            case QueuePair.OP_WRITE_INLINE:
                return CompletionOpcode.RDMA_WRITE;
            case QueuePair.OP_READ:
                return CompletionOpcode.RDMA_READ;
            default:
                return CompletionOpcode.SEND;
        }
    }
}
