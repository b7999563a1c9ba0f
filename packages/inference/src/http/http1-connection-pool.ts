import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** Where requests of one origin go. */
export interface Http1Origin {
  /** `http://host:port` or `https://host:port`: the pool's key. */
  key: string;
  host: string;
  port: number;
  isTls: boolean;
}

export interface Http1ConnectionPoolOptions {
  /** Open connections per origin at most; further requests wait for one. Default 256. */
  connectionsPerOrigin?: number;
  /** Time to establish a connection, in ms. Default 5_000. */
  connectTimeoutMs?: number;
  /** An idle kept-alive connection closes after this many ms. Default 60_000. */
  keepAliveTimeoutMs?: number;
}

/** A connection handed out for one request. */
export interface Http1Lease {
  socket: Socket;
  /** True when the connection carried an earlier request (it may have been closed meanwhile). */
  isReused: boolean;
}

/** A request waiting for a connection of a full origin. */
export interface Http1Wait {
  promise: Promise<Http1Lease>;
  cancel(): void;
}

interface Waiter {
  grant(lease: Http1Lease): void;
  fail(error: Error): void;
}

const closedError = () => Object.assign(new Error("the HTTP client is closed"), { code: "UND_ERR_CLOSED" });

/** What ends an idle connection's life in the pool. */
const IDLE_EVENTS = ["end", "data", "error", "timeout"] as const;

interface OriginState {
  idle: Socket[];
  open: number;
  waiters: Waiter[];
}

/** A connection error with the code node gives it (`ECONNREFUSED`, …) or ours for a connect timeout. */
const connectTimeoutError = (origin: Http1Origin, ms: number) =>
  Object.assign(new Error(`connecting to ${origin.key} took longer than ${ms} ms`), {
    code: "UND_ERR_CONNECT_TIMEOUT",
  });

/**
 * Kept-alive HTTP/1.1 connections per origin (TCP, or TLS for https): a request takes the most
 * recently used idle connection, or opens one while the origin has fewer than its limit open, or
 * waits for one to come back. Idle connections close after the keep-alive timeout, and are dropped
 * the moment the server closes them.
 */
export class Http1ConnectionPool {
  private readonly origins = new Map<string, OriginState>();
  /** The listener that drops each idle connection (removed, and only it, when the connection is taken). */
  private readonly idleDrops = new Map<Socket, () => void>();
  private readonly limit: number;
  private readonly connectTimeoutMs: number;
  private readonly keepAliveTimeoutMs: number;
  private isClosed = false;

  constructor(options: Http1ConnectionPoolOptions = {}) {
    this.limit = options.connectionsPerOrigin ?? 256;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    this.keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? 60_000;
  }

  /**
   * A connection at once when one is idle or may be opened; else a wait for the next one free,
   * which the caller cancels when it leaves first.
   */
  acquire(origin: Http1Origin): Http1Lease | Http1Wait {
    if (this.isClosed) throw closedError();
    const state = this.stateOf(origin);
    const idle = state.idle.pop();
    if (idle) {
      this.unwatchIdle(idle);
      return { socket: idle, isReused: true };
    }
    if (state.open < this.limit) return { socket: this.open(origin, state), isReused: false };
    let waiter: Waiter | undefined;
    const promise = new Promise<Http1Lease>((grant, fail) => {
      const created: Waiter = { grant, fail };
      waiter = created;
      state.waiters.push(created);
    });
    return {
      promise,
      cancel: () => {
        const at = waiter ? state.waiters.indexOf(waiter) : -1;
        if (at !== -1) state.waiters.splice(at, 1);
      },
    };
  }

  /**
   * The request on `socket` is over: a reusable connection goes to the next waiter or back to the
   * idle list; any other is closed (and makes room for a waiter to open a new one).
   */
  release(origin: Http1Origin, socket: Socket, isReusable: boolean): void {
    const state = this.stateOf(origin);
    if (!isReusable || this.isClosed || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    const waiter = state.waiters.shift();
    if (waiter) {
      waiter.grant({ socket, isReused: true });
      return;
    }
    this.watchIdle(state, socket);
    state.idle.push(socket);
  }

  /**
   * Closes every idle connection and fails every waiting request; connections in use close when
   * their requests end.
   */
  close(): void {
    this.isClosed = true;
    for (const state of this.origins.values()) {
      for (const socket of state.idle.splice(0)) socket.destroy();
      for (const waiter of state.waiters.splice(0)) waiter.fail(closedError());
    }
  }

  private stateOf(origin: Http1Origin): OriginState {
    let state = this.origins.get(origin.key);
    if (!state) {
      state = { idle: [], open: 0, waiters: [] };
      this.origins.set(origin.key, state);
    }
    return state;
  }

  private open(origin: Http1Origin, state: OriginState): Socket {
    const socket = origin.isTls
      ? connectTls({
          host: origin.host,
          port: origin.port,
          // SNI names a host, never an address.
          ...(isIP(origin.host) === 0 && { servername: origin.host }),
          ALPNProtocols: ["http/1.1"],
        })
      : connectTcp({ host: origin.host, port: origin.port });
    socket.setNoDelay(true);
    state.open += 1;
    const connectTimer = setTimeout(
      () => socket.destroy(connectTimeoutError(origin, this.connectTimeoutMs)),
      this.connectTimeoutMs,
    );
    connectTimer.unref();
    socket.once(origin.isTls ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    socket.once("close", () => {
      clearTimeout(connectTimer);
      state.open -= 1;
      const at = state.idle.indexOf(socket);
      if (at !== -1) state.idle.splice(at, 1);
      this.idleDrops.delete(socket);
      // Room for one more: the longest waiter opens it.
      const waiter = state.waiters.shift();
      if (waiter && !this.isClosed) waiter.grant({ socket: this.open(origin, state), isReused: false });
    });
    return socket;
  }

  private watchIdle(state: OriginState, socket: Socket): void {
    const drop = () => {
      const at = state.idle.indexOf(socket);
      if (at !== -1) state.idle.splice(at, 1);
      this.idleDrops.delete(socket);
      socket.destroy();
    };
    // The server closing an idle connection (its keep-alive timeout), or bytes nobody asked for.
    for (const event of IDLE_EVENTS) socket.on(event, drop);
    this.idleDrops.set(socket, drop);
    socket.setTimeout(this.keepAliveTimeoutMs);
    socket.unref();
  }

  private unwatchIdle(socket: Socket): void {
    // Only our own listener: node's socket has listeners of its own (its 'end' handling).
    const drop = this.idleDrops.get(socket);
    this.idleDrops.delete(socket);
    if (drop) for (const event of IDLE_EVENTS) socket.off(event, drop);
    socket.setTimeout(0);
    socket.ref();
  }
}
