// The page's session against a scripted gateway: a stand-in WebSocket whose frames the test writes, with fake timers
// for the reconnect back-off. Covers the resume protocol of docs/gateway.md as the page runs it.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayConnection } from '../src/connection';
import type { ConnectionHandlers } from '../src/connection';
import type { GatewayMessage } from '../src/protocol';

class FakeSocket
{
    readyState = 0;
    readonly sent: Record<string, unknown>[] = [];
    closedWith: number | null = null;
    onopen: (() => void) | null = null;
    onmessage: ((event: { data: string }) => void) | null = null;
    onclose: ((event: { code: number; reason: string }) => void) | null = null;

    constructor(readonly url: string)
    {
    }

    send(text: string): void
    {
        this.sent.push(JSON.parse(text) as Record<string, unknown>);
    }

    close(code = 1000): void
    {
        this.closedWith = code;
        this.readyState = 3;
    }

    /** The gateway accepts the TCP connection. */
    open(): void
    {
        this.readyState = 1;
        this.onopen?.();
    }

    /** A frame from the gateway. */
    receive(message: object): void
    {
        this.onmessage?.({ data: JSON.stringify(message) });
    }

    /** The connection drops. */
    drop(code: number, reason = ''): void
    {
        this.readyState = 3;
        this.onclose?.({ code, reason });
    }
}

interface Recorded
{
    messages: { message: GatewayMessage; resent: boolean }[];
    notices: string[];
    ended: string[];
    states: string[];
}

function connect(): { connection: GatewayConnection; sockets: FakeSocket[]; seen: Recorded }
{
    const sockets: FakeSocket[] = [];
    const seen: Recorded = { messages: [], notices: [], ended: [], states: [] };
    const handlers: ConnectionHandlers = {
        onMessage: (message, meta) => seen.messages.push({ message, resent: meta.resent }),
        onStatus: (_text, state) => seen.states.push(state),
        onNotice: (text) => seen.notices.push(text),
        onEnded: (reason) => seen.ended.push(reason),
    };
    const connection = new GatewayConnection('ws://gateway.test/ws', handlers, (url) =>
    {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket as unknown as WebSocket;
    });
    return { connection, sockets, seen };
}

const LOGON = { type: 'logon', seq: 1, session: 'token-1', user: 'alice', roles: ['trader'], accounts: [101],
    heartbeatMs: 5000 };

function report(seq: number, clOrdId: string, execType: string): object
{
    return { type: 'executionReport', seq, clOrdId, execType };
}

function reports(seen: Recorded): string[]
{
    return seen.messages.filter((m) => 'executionReport' === m.message.type)
        .map((m) => `${String(m.message.seq)}${m.resent ? ' resent' : ''}`);
}

describe('the session with the gateway', () =>
{
    beforeEach(() =>
    {
        vi.useFakeTimers();
        vi.spyOn(Math, 'random').mockReturnValue(0);
    });

    afterEach(() =>
    {
        vi.useRealTimers();
        vi.restoreAllMocks();
    });

    it('logs on with the credentials and resolves with the reply', async () =>
    {
        const { connection, sockets } = connect();
        const logon = connection.logon('alice', 'alice-pw');
        sockets[0].open();
        expect(sockets[0].sent[0]).toMatchObject({ type: 'logon', username: 'alice', password: 'alice-pw',
            session: 'web' });
        expect(sockets[0].sent[0].resume).toBeUndefined();
        sockets[0].receive(LOGON);
        await expect(logon).resolves.toMatchObject({ user: 'alice', session: 'token-1' });
        expect(connection.token).toBe('token-1');
        expect(connection.send({ type: 'heartbeat' })).toBe(true);
    });

    it("rejects the logon with the gateway's reason", async () =>
    {
        const { connection, sockets } = connect();
        const logon = connection.logon('alice', 'wrong');
        sockets[0].open();
        sockets[0].receive({ type: 'logonRejected', seq: 0, reason: 'unknown user or wrong password' });
        await expect(logon).rejects.toThrow('unknown user or wrong password');
        expect(connection.send({ type: 'heartbeat' })).toBe(false);
    });

    it('reconnects after a drop and resumes from the last number, taking the resend once and marked', async () =>
    {
        const { connection, sockets, seen } = connect();
        const logon = connection.logon('alice', 'alice-pw');
        sockets[0].open();
        sockets[0].receive(LOGON);
        await logon;
        sockets[0].receive(report(2, 'o1', 'new'));
        sockets[0].receive(report(3, 'o2', 'new'));
        sockets[0].drop(1006);
        expect(seen.notices.at(-1)).toMatch(/connection lost \(1006\); reconnecting in 250 ms .* from #4/);
        expect(sockets).toHaveLength(1);
        vi.advanceTimersByTime(249);
        expect(sockets).toHaveLength(1);
        vi.advanceTimersByTime(1);
        expect(sockets).toHaveLength(2);
        sockets[1].open();
        expect(sockets[1].sent[0]).toMatchObject({ type: 'logon', resume: { token: 'token-1', fromSeq: 4 } });
        // The reply is numbered 7: the gateway resends 4 to 6 (5 as a gap fill), then goes on live from 8.
        sockets[1].receive({ ...LOGON, seq: 7, resumed: true, resend: { from: 4, to: 6 } });
        sockets[1].receive(report(4, 'o1', 'filled'));
        sockets[1].receive(report(4, 'o1', 'filled'));
        sockets[1].receive({ type: 'gapFill', seq: 5, newSeq: 6 });
        sockets[1].receive(report(6, 'o2', 'cancelled'));
        sockets[1].receive(report(7, 'o2', 'cancelled'));
        sockets[1].receive(report(8, 'o3', 'new'));
        expect(reports(seen)).toEqual(['2', '3', '4 resent', '6 resent', '8']);
        expect(connection.sequence.last).toBe(8);
        expect(connection.sequence.duplicates).toBe(2);
        expect(seen.notices).toContain('reconnected and resumed the session from #4; the gateway resends #4 to #6');
        expect(seen.ended).toEqual([]);
    });

    it('backs off doubling between failed reconnects', async () =>
    {
        const { connection, sockets, seen } = connect();
        const logon = connection.logon('alice', 'alice-pw');
        sockets[0].open();
        sockets[0].receive(LOGON);
        await logon;
        sockets[0].drop(1006);
        vi.advanceTimersByTime(250);
        sockets[1].drop(1006);
        vi.advanceTimersByTime(499);
        expect(sockets).toHaveLength(2);
        vi.advanceTimersByTime(1);
        expect(sockets).toHaveLength(3);
        expect(seen.notices.filter((n) => n.startsWith('connection lost'))).toHaveLength(2);
        expect(connection.reconnects).toBe(2);
    });

    it('resumes from the hole when a number is skipped on a live connection', async () =>
    {
        const { connection, sockets, seen } = connect();
        const logon = connection.logon('alice', 'alice-pw');
        sockets[0].open();
        sockets[0].receive(LOGON);
        await logon;
        sockets[0].receive(report(2, 'o1', 'new'));
        sockets[0].receive(report(4, 'o1', 'filled'));
        expect(reports(seen)).toEqual(['2']);
        expect(sockets[0].closedWith).toBe(1000);
        expect(seen.notices[0]).toBe('sequence hole: got #4 after #2; reconnecting to resume');
        vi.advanceTimersByTime(250);
        sockets[1].open();
        expect(sockets[1].sent[0]).toMatchObject({ resume: { token: 'token-1', fromSeq: 3 } });
    });

    it('logs on as a new session when the gateway refuses the resume', async () =>
    {
        const { connection, sockets, seen } = connect();
        const logon = connection.logon('alice', 'alice-pw');
        sockets[0].open();
        sockets[0].receive(LOGON);
        await logon;
        sockets[0].drop(1006);
        vi.advanceTimersByTime(250);
        sockets[1].open();
        sockets[1].receive({ type: 'logonRejected', seq: 0, reason: 'cannot resume: session expired' });
        expect(seen.messages.at(-1)?.message).toMatchObject({ type: 'sessionLost' });
        expect(connection.token).toBeNull();
        sockets[1].drop(1006);
        // The second attempt in a row: 500 ms.
        vi.advanceTimersByTime(500);
        sockets[2].open();
        expect(sockets[2].sent[0].resume).toBeUndefined();
        expect(seen.notices).toContain(
            'the gateway refused the resume (cannot resume: session expired); logging on as a new session');
    });

    it('stops after an operator ends the session, without reconnecting', async () =>
    {
        const { connection, sockets, seen } = connect();
        const logon = connection.logon('alice', 'alice-pw');
        sockets[0].open();
        sockets[0].receive(LOGON);
        await logon;
        sockets[0].drop(4002, 'maintenance-window');
        vi.advanceTimersByTime(10_000);
        expect(sockets).toHaveLength(1);
        expect(seen.ended).toEqual(['maintenance-window']);
    });

    it('reconnects when the gateway is silent for 2.5 heartbeat intervals, answering test requests meanwhile',
        async () =>
        {
            const { connection, sockets, seen } = connect();
            const logon = connection.logon('alice', 'alice-pw');
            sockets[0].open();
            sockets[0].receive(LOGON);
            await logon;
            sockets[0].receive({ type: 'testRequest', seq: 0, testId: 't1' });
            expect(sockets[0].sent.at(-1)).toEqual({ type: 'heartbeat', testId: 't1' });
            vi.advanceTimersByTime(12_250);
            expect(seen.notices.some((n) => n.startsWith('nothing from the gateway'))).toBe(false);
            expect(sockets[0].sent.some((m) => 'heartbeat' === m.type && undefined === m.testId)).toBe(true);
            vi.advanceTimersByTime(500);
            expect(seen.notices.some((n) => /nothing from the gateway for \d+ ms: reconnecting/.test(n))).toBe(true);
            expect(sockets).toHaveLength(1);
            vi.advanceTimersByTime(250);
            expect(sockets).toHaveLength(2);
        });
});
