// The page's session with the gateway over its WebSocket JSON protocol (docs/gateway.md): logon, heartbeats,
// sequence numbers, and when the connection drops, reconnection with back-off and a logon that resumes from the last
// number seen. The credentials are held in memory only, for the resume logons; the page's source carries none.

import { SessionSequence, DUPLICATE, HOLE } from './sequence';
import type { GatewayMessage, LogonReply } from './protocol';

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 8000;
const HEARTBEAT_MS = 5000;
/** WebSocket.OPEN, named here so the class also runs where there is no global WebSocket (unit tests). */
const SOCKET_OPEN = 1;
/** Close codes after which the session is over (a logout, an operator, another connection took it). */
const FINAL_CLOSES = new Set([1000, 4002, 4003]);

export type NoticeLevel = 'info' | 'warn' | 'error';
export type LinkState = 'up' | 'down' | 'connecting';

export interface ConnectionHandlers
{
    onMessage(message: GatewayMessage, meta: { resent: boolean }): void;
    onStatus(text: string, state: LinkState): void;
    onNotice(text: string, level: NoticeLevel): void;
    onEnded(reason: string): void;
}

/** What the connection needs of a WebSocket class: the browser's, or a test's stand-in. */
export type SocketFactory = (url: string) => WebSocket;

interface Credentials
{
    username: string;
    password: string;
}

export class GatewayConnection
{
    sequence = new SessionSequence();
    socket: WebSocket | null = null;
    /** The session's resume token, from its logon reply. */
    token: string | null = null;
    heartbeatMs = HEARTBEAT_MS;
    attempt = 0;
    ending = false;
    loggedOn = false;
    reconnects = 0;
    resends = 0;
    private credentials: Credentials | null = null;
    private pendingLogon: { resolve: (reply: LogonReply) => void; reject: (error: Error) => void } | null = null;
    private timer: ReturnType<typeof setInterval> | undefined = undefined;
    private reconnectTimer: ReturnType<typeof setTimeout> | undefined = undefined;
    private lastSentMs = 0;
    private lastReceivedMs = 0;
    private resendTo = 0;
    private askedFrom = 0;

    /**
     * @param url the gateway's WebSocket URL
     * @param handlers what the page does with messages, state changes and notices
     * @param socketFactory opens the WebSocket (tests give their own)
     */
    constructor(private readonly url: string, private readonly handlers: ConnectionHandlers,
        private readonly socketFactory: SocketFactory = (address) => new WebSocket(address))
    {
    }

    /**
     * Logs on with a user name and password.
     * @returns a promise of the gateway's `logon` reply; rejected with the gateway's reason
     */
    logon(username: string, password: string): Promise<LogonReply>
    {
        this.credentials = { username, password };
        this.ending = false;
        return new Promise<LogonReply>((resolve, reject) =>
        {
            this.pendingLogon = { resolve, reject };
            this.open();
        });
    }

    /** Sends a request (an object with `type`). False when there is no logged-on connection to send it on. */
    send(message: object): boolean
    {
        if (!this.loggedOn || !this.socket || SOCKET_OPEN !== this.socket.readyState)
        {
            return false;
        }
        this.socket.send(JSON.stringify(message));
        this.lastSentMs = Date.now();
        return true;
    }

    /** Logs out: the gateway cancels the session's orders and closes with 1000. */
    logout(): void
    {
        this.ending = true;
        if (!this.send({ type: 'logout' }))
        {
            this.close('logged out');
        }
    }

    /** Drops the connection and does not reconnect. */
    close(reason: string): void
    {
        this.ending = true;
        this.loggedOn = false;
        clearTimeout(this.reconnectTimer);
        clearInterval(this.timer);
        if (this.socket)
        {
            this.socket.close(1000, 'closed by the page');
            this.socket = null;
        }
        this.credentials = null;
        this.handlers.onEnded(reason);
    }

    private open(): void
    {
        const socket = this.socketFactory(this.url);
        this.socket = socket;
        this.handlers.onStatus(this.token ? 'reconnecting' : 'connecting', 'connecting');
        socket.onopen = () =>
        {
            if (socket !== this.socket)
            {
                return;
            }
            if (!this.credentials)
            {
                socket.close(1000, 'logged off meanwhile');
                return;
            }
            const logon: Record<string, unknown> = {
                type: 'logon',
                username: this.credentials.username,
                password: this.credentials.password,
                heartbeatMs: HEARTBEAT_MS,
                session: 'web',
            };
            if (this.token)
            {
                this.askedFrom = this.sequence.fromSeq();
                logon.resume = { token: this.token, fromSeq: this.askedFrom };
            }
            socket.send(JSON.stringify(logon));
            this.lastSentMs = Date.now();
            this.lastReceivedMs = Date.now();
        };
        socket.onmessage = (event) =>
        {
            if (socket === this.socket)
            {
                this.onFrame(String(event.data));
            }
        };
        socket.onclose = (event) =>
        {
            if (socket === this.socket)
            {
                this.onClose(event.code, event.reason);
            }
        };
    }

    private onFrame(data: string): void
    {
        this.lastReceivedMs = Date.now();
        let message: GatewayMessage;
        try
        {
            message = JSON.parse(data);
        }
        catch (error)
        {
            this.handlers.onNotice(`the gateway sent something that is not JSON: ${(error as Error).message}`, 'error');
            return;
        }
        switch (message.type)
        {
            case 'logon':
                this.onLogon(message as unknown as LogonReply);
                return;
            case 'logonRejected':
                this.onLogonRejected(String(message.reason));
                return;
            case 'gapFill':
                if (HOLE === this.sequence.onGapFill(Number(message.seq), Number(message.newSeq)))
                {
                    this.onHole(Number(message.seq));
                }
                this.resends++;
                return;
            case 'testRequest':
                this.send({ type: 'heartbeat', testId: message.testId });
                break;
            default:
                break;
        }
        const seq = Number(message.seq ?? 0);
        if (0 === seq)
        {
            this.handlers.onMessage(message, { resent: false });
            return;
        }
        const outcome = this.sequence.onMessage(seq);
        if (DUPLICATE === outcome)
        {
            return;
        }
        if (HOLE === outcome)
        {
            this.onHole(seq);
            return;
        }
        const resent = seq <= this.resendTo;
        if (resent)
        {
            this.resends++;
        }
        this.handlers.onMessage(message, { resent });
    }

    private onLogon(message: LogonReply): void
    {
        this.token = message.session;
        this.heartbeatMs = message.heartbeatMs;
        this.loggedOn = true;
        this.attempt = 0;
        if (message.resumed)
        {
            this.sequence.onResumed(message.seq);
            this.resendTo = message.resend ? message.resend.to : 0;
            const resend = message.resend ? `; the gateway resends #${message.resend.from} to #${message.resend.to}` :
                '; nothing was missed';
            this.handlers.onNotice(`reconnected and resumed the session from #${this.askedFrom}${resend}`, 'info');
        }
        else
        {
            this.sequence.onNewSession(message.seq);
        }
        clearInterval(this.timer);
        this.timer = setInterval(() => this.onTimer(), 250);
        this.handlers.onStatus(`logged on as ${message.user}`, 'up');
        this.handlers.onMessage(message as unknown as GatewayMessage, { resent: false });
        if (this.pendingLogon)
        {
            this.pendingLogon.resolve(message);
            this.pendingLogon = null;
        }
    }

    private onLogonRejected(reason: string): void
    {
        if (this.pendingLogon)
        {
            this.pendingLogon.reject(new Error(reason));
            this.pendingLogon = null;
            this.ending = true;
            this.credentials = null;
            return;
        }
        if (this.token && /^cannot resume/.test(reason))
        {
            this.handlers.onNotice(`the gateway refused the resume (${reason}); logging on as a new session`, 'warn');
            this.token = null;
            this.sequence = new SessionSequence();
            this.handlers.onMessage({ type: 'sessionLost', reason }, { resent: false });
            return;
        }
        this.handlers.onNotice(`logon refused on reconnect: ${reason}`, 'error');
        this.ending = true;
        this.handlers.onEnded(reason);
    }

    private onHole(seq: number): void
    {
        this.handlers.onNotice(`sequence hole: got #${seq} after #${this.sequence.last}; reconnecting to resume`, 'warn');
        if (this.socket)
        {
            const socket = this.socket;
            this.onClose(4000, 'resume after a sequence hole');
            socket.close(1000, 'resume after a sequence hole');
        }
    }

    private onTimer(): void
    {
        const now = Date.now();
        if (now - this.lastSentMs >= this.heartbeatMs)
        {
            this.send({ type: 'heartbeat' });
        }
        if (this.loggedOn && now - this.lastReceivedMs > this.heartbeatMs * 2.5 && this.socket)
        {
            this.handlers.onNotice(`nothing from the gateway for ${now - this.lastReceivedMs} ms: reconnecting`, 'warn');
            const socket = this.socket;
            this.onClose(4001, 'gateway silent');
            socket.close();
        }
    }

    private onClose(code: number, reason: string): void
    {
        this.socket = null;
        this.loggedOn = false;
        clearInterval(this.timer);
        if (this.pendingLogon && !this.token)
        {
            this.pendingLogon.reject(new Error(reason || `connection closed (${code}) before the logon was answered`));
            this.pendingLogon = null;
            this.credentials = null;
            this.ending = true;
            this.handlers.onStatus('logged off', 'down');
            return;
        }
        if (this.ending || FINAL_CLOSES.has(code))
        {
            this.ending = true;
            this.credentials = null;
            this.handlers.onStatus('logged off', 'down');
            this.handlers.onEnded(reason || `connection closed (${code})`);
            return;
        }
        if (!this.credentials)
        {
            return;
        }
        const delayMs = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt) +
            Math.floor(Math.random() * BACKOFF_MIN_MS);
        this.attempt++;
        this.reconnects++;
        this.handlers.onNotice(`connection lost (${code}${reason ? ' ' + reason : ''}); reconnecting in ${delayMs} ms ` +
            `(attempt ${this.attempt}), then resuming from #${this.sequence.fromSeq()}`, 'warn');
        this.handlers.onStatus(`disconnected: reconnecting in ${delayMs} ms`, 'down');
        this.reconnectTimer = setTimeout(() => this.open(), delayMs);
    }
}
