// A fast path in front of node:http for the KV REST service's ordinary requests (issue 26).
//
// Why it exists: node:http costs a small request ~12 µs of CPU here, more than half of what the bridge spends on
// the SDK's `POST /` (Redis and the bridge's own code are the rest). A reader on the bare socket costs ~6.5 µs
// (`bench kv` measures both in every run: "bare-socket floor"). So the keep-alive requests that SDKs send —
// GET or POST, HTTP/1.1, a Content-Length body that arrived whole — are read here and answered through a small
// response object; every other request, and a connection's every request after it, goes to node:http with the
// socket, so node:http's parser, limits and timeouts apply to everything unusual (chunked bodies, Expect,
// Upgrade, oversized or slow requests, malformed heads: node:http answers those with its own errors).
//
// The handler sees the same shape either way: a request with `method`, `url`, `headers` (lower-case names)
// and `socket`, whose body `wholeBody(req)` returns; a response with `writeHead`, `write`, `end`,
// `headersSent`, `destroyed` and 'drain'/'close' events. It must not use anything else of node:http's objects.
import http from 'node:http';
import type net from 'node:net';

export interface FastPathOptions {
  /** Whether a request may be answered here (else it and its connection go to node:http). */
  accepts(method: string, url: string): boolean;
  /** Larger bodies go to node:http, whose handler then applies the service's own size limit. */
  maxBodyBytes: number;
  /** An idle keep-alive connection is closed after this long, as node:http's `keepAliveTimeout`. */
  keepAliveTimeoutMs: number;
  /** Told each time a connection is handed to node:http (tests). */
  onHandOff?(reason: string): void;
}

const WHOLE_BODY = Symbol('wholeBody');

/** The body of a request read by the fast path, whole; undefined for node:http's requests. */
export function wholeBody(req: http.IncomingMessage): Buffer | undefined {
  return (req as unknown as { [WHOLE_BODY]?: Buffer })[WHOLE_BODY];
}

const HEAD_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);
/** A head that has not ended by this size goes to node:http, which has its own limit for long ones. */
const MAX_FAST_HEAD_BYTES = 16 * 1024;
/** While a response is running, at most this much of the next requests is kept before the socket pauses. */
const MAX_PENDING_BYTES = 1024 * 1024;
// What node:http itself would accept, kept strict: anything else is node:http's to answer or refuse.
const REQUEST_LINE = /^(GET|POST) (\/[!-~]*) HTTP\/1\.1$/;
const HEADER_LINES = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*\r\n)*$/;
const DIGITS = /^[0-9]{1,10}$/;

/**
 * Puts the fast path in front of `server`'s own connection handling: each new connection is read here first,
 * and given to node:http's handler the moment a request is not for the fast path. `server` listens, closes and
 * keeps its timeouts as before for the connections it is given; `destroyConnections` ends the fast path's own.
 */
export function installFastPath(
  server: http.Server,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  options: FastPathOptions,
): { destroyConnections(): void } {
  // node:http reads a connection through its 'connection' listener; its documentation lets a user emit the
  // event to give it a socket, which is what a hand-over does.
  const nodeListeners = server.listeners('connection') as ((socket: net.Socket) => void)[];
  server.removeAllListeners('connection');
  const giveToNode = (socket: net.Socket): void => {
    for (const listener of nodeListeners) listener.call(server, socket);
  };
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    readConnection(socket, handler, options, (reason) => {
      sockets.delete(socket);
      options.onHandOff?.(reason);
      giveToNode(socket);
    });
  });
  return {
    destroyConnections() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

function readConnection(
  socket: net.Socket,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  options: FastPathOptions,
  handTo: (reason: string) => void,
): void {
  socket.setNoDelay(true);
  let pending: Buffer = EMPTY;
  let current: FastResponse | undefined;
  let closing = false;
  /** The client has sent all it will; the requests it sent are still answered. */
  let clientEnded = false;
  let handedOff = false;
  const keepAlive = `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(options.keepAliveTimeoutMs / 1000)}\r\n\r\n`;

  // The socket's own inactivity timer, set once: reads and writes restart it, and a request still running
  // when it fires (a blocking command may wait minutes) keeps the connection.
  const idle = (): void => {
    if (!current) socket.destroy();
  };
  const onError = (): void => {
    socket.destroy();
  };
  const onClose = (): void => {
    current?.emit('close');
  };
  const onDrain = (): void => {
    current?.emit('drain');
  };
  // The client has sent all it will (node:http's server keeps such a connection half open, so must we): it
  // gets the answers to the requests it sent, then the connection ends.
  const onEnd = (): void => {
    clientEnded = true;
    if (!current) answerRest();
  };
  /** After the client's end: the requests still pending, then our end of the connection. */
  const answerRest = (): void => {
    next();
    if (!current && !handedOff) socket.end();
  };
  const onData = (chunk: Buffer): void => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (current) {
      // Requests pipelined behind a running one wait for it, as node:http's do.
      if (pending.length > MAX_PENDING_BYTES) socket.pause();
      return;
    }
    next();
  };
  socket.setTimeout(options.keepAliveTimeoutMs);
  socket.on('timeout', idle);
  socket.on('data', onData);
  socket.on('error', onError);
  socket.on('close', onClose);
  socket.on('drain', onDrain);
  socket.on('end', onEnd);

  function handOff(reason: string): void {
    handedOff = true;
    socket.pause();
    socket.off('data', onData);
    socket.off('error', onError);
    socket.off('close', onClose);
    socket.off('drain', onDrain);
    socket.off('end', onEnd);
    socket.setTimeout(0);
    socket.off('timeout', idle);
    // Paused, the socket reads nothing new until node:http has it, so the bytes given back come first.
    if (pending.length > 0) socket.unshift(pending);
    pending = EMPTY;
    handTo(reason);
    socket.resume();
  }

  /** Answers the next whole request in `pending`, or hands the connection over. */
  function next(): void {
    if (closing || socket.destroyed || pending.length === 0) return;
    const headEnd = pending.indexOf(HEAD_END);
    if (headEnd === -1) {
      return handOff(pending.length > MAX_FAST_HEAD_BYTES ? 'long head' : 'partial head');
    }
    const head = pending.toString('latin1', 0, headEnd + 2);
    const lineEnd = head.indexOf('\r\n');
    const requestLine = REQUEST_LINE.exec(head.slice(0, lineEnd));
    if (!requestLine) return handOff('request line');
    const method = requestLine[1]!;
    const url = requestLine[2]!;
    const block = head.slice(lineEnd + 2);
    if (!HEADER_LINES.test(block)) return handOff('header syntax');
    const headers: Record<string, string> = {};
    let at = 0;
    while (at < block.length) {
      const end = block.indexOf('\r\n', at);
      const colon = block.indexOf(':', at);
      const name = block.slice(at, colon).toLowerCase();
      // A repeated header is node:http's to join or refuse. (Reading the slot is far cheaper than `in` here.)
      if (headers[name] !== undefined) return handOff(`header ${name}`);
      // Optional whitespace around the value (HEADER_LINES allowed only spaces and tabs there).
      let from = colon + 1;
      while (block.charCodeAt(from) === 32 || block.charCodeAt(from) === 9) from++;
      let to = end;
      while (to > from && (block.charCodeAt(to - 1) === 32 || block.charCodeAt(to - 1) === 9)) to--;
      headers[name] = block.slice(from, to);
      at = end + 2;
    }
    // Headers that change how the body or the connection is read are node:http's too.
    if (
      headers['transfer-encoding'] !== undefined ||
      headers.expect !== undefined ||
      headers.upgrade !== undefined ||
      headers['http2-settings'] !== undefined
    ) {
      return handOff('framing header');
    }
    const connection = headers.connection;
    if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return handOff('connection');
    const length = headers['content-length'];
    if (length !== undefined && !DIGITS.test(length)) return handOff('content-length');
    const bodyBytes = length === undefined ? 0 : Number(length);
    if (bodyBytes > options.maxBodyBytes) return handOff('large body');
    const end = headEnd + HEAD_END.length + bodyBytes;
    if (end > pending.length) return handOff('partial body');
    if (!options.accepts(method, url)) return handOff('route');

    const req = new FastRequest(
      method,
      url,
      headers,
      socket,
      pending.subarray(headEnd + HEAD_END.length, end),
    );
    pending = end === pending.length ? EMPTY : pending.subarray(end);
    const res = new FastResponse(socket, keepAlive, () => {
      current = undefined;
      if (res.closesConnection) {
        closing = true;
        socket.end();
        return;
      }
      if (clientEnded) return answerRest();
      if (socket.isPaused()) socket.resume();
      next();
    });
    current = res;
    handler(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse);
  }
}

/** The request fields the handler reads (see the top of this file); its body through `wholeBody`. */
class FastRequest {
  readonly [WHOLE_BODY]: Buffer;
  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: Record<string, string>,
    readonly socket: net.Socket,
    body: Buffer,
  ) {
    this[WHOLE_BODY] = body;
  }
}

/** Formatted at most once a second, as node:http does: a timer forgets it at the next second. */
let dateHeader = '';
function currentDate(): string {
  if (dateHeader === '') {
    const now = new Date();
    dateHeader = now.toUTCString();
    setTimeout(() => (dateHeader = ''), 1000 - now.getMilliseconds()).unref();
  }
  return dateHeader;
}

/** A line break or NUL in a header would end it early or split the response. */
const UNSAFE = /[\r\n\0]/;
/** Header names are the handler's constants: each is checked and lower-cased once. */
const checkedNames = new Map<string, string>();
function lowerName(name: string): string {
  let lower = checkedNames.get(name);
  if (lower === undefined) {
    if (UNSAFE.test(name))
      throw new Error(`writeHead: header name ${JSON.stringify(name)} has a line break or NUL`);
    lower = name.toLowerCase();
    if (checkedNames.size < 100) checkedNames.set(name, lower);
  }
  return lower;
}

/**
 * The part of node:http's ServerResponse that the KV handler uses. A body without Content-Length is sent
 * chunked, as node:http does.
 */
class FastResponse {
  headersSent = false;
  /** The handler asked for `Connection: close` (after an oversized body, say). */
  closesConnection = false;
  private chunked = false;
  private head = '';
  private finished = false;
  /** 'drain' and 'close' listeners (writing a large reply waits for them); most responses have none. */
  private listeners: { event: string; listener: () => void }[] | undefined;

  on(event: 'drain' | 'close', listener: () => void): this {
    (this.listeners ??= []).push({ event, listener });
    return this;
  }

  off(event: 'drain' | 'close', listener: () => void): this {
    this.listeners = this.listeners?.filter((l) => l.event !== event || l.listener !== listener);
    return this;
  }

  emit(event: 'drain' | 'close'): void {
    for (const l of this.listeners ?? []) if (l.event === event) l.listener();
  }

  constructor(
    private readonly socket: net.Socket,
    /** The head's last lines for a connection kept open. */
    private readonly keepAlive: string,
    private readonly onFinish: () => void,
  ) {}

  get destroyed(): boolean {
    return this.socket.destroyed;
  }

  writeHead(status: number, headers: Record<string, string> = {}): this {
    if (this.headersSent) throw new Error('writeHead: the head was already written');
    let head = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Unknown'}\r\n`;
    let hasLength = false;
    for (const name in headers) {
      const value = headers[name]!;
      if (UNSAFE.test(value))
        throw new Error(`writeHead: header ${JSON.stringify(name)} has a line break or NUL`);
      const lower = lowerName(name);
      if (lower === 'content-length') hasLength = true;
      else if (lower === 'connection') {
        this.closesConnection = value.toLowerCase() === 'close';
        continue;
      }
      head += `${name}: ${value}\r\n`;
    }
    this.chunked = !hasLength && status !== 204 && status !== 304;
    if (this.chunked) head += 'Transfer-Encoding: chunked\r\n';
    head += `Date: ${currentDate()}\r\n`;
    head += this.closesConnection ? 'Connection: close\r\n\r\n' : this.keepAlive;
    this.head = head;
    this.headersSent = true;
    return this;
  }

  /** Like ServerResponse#write: false when the socket's buffer is full ('drain' follows). */
  write(chunk: string | Buffer): boolean {
    if (!this.headersSent) this.writeHead(200);
    if (this.socket.destroyed) return false;
    const first = this.takeHead();
    if (!this.chunked) return this.socket.write(first ? join(first, chunk) : chunk);
    const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (size === 0) return first ? this.socket.write(first) : true;
    const frame = `${first}${size.toString(16)}\r\n`;
    this.socket.write(frame);
    this.socket.write(chunk);
    return this.socket.write('\r\n');
  }

  end(chunk?: string | Buffer): this {
    if (this.finished) return this;
    this.finished = true;
    if (!this.headersSent) this.writeHead(200);
    if (!this.socket.destroyed) {
      if (this.chunked) {
        if (chunk !== undefined) this.write(chunk);
        this.socket.write(`${this.takeHead()}0\r\n\r\n`);
      } else {
        const first = this.takeHead();
        if (chunk !== undefined) this.socket.write(first ? join(first, chunk) : chunk);
        else if (first) this.socket.write(first);
      }
    }
    this.onFinish();
    return this;
  }

  /** The head the first write carries with it (one socket write for a whole small response). */
  private takeHead(): string {
    const head = this.head;
    this.head = '';
    return head;
  }
}

function join(head: string, body: string | Buffer): string | Buffer {
  return typeof body === 'string' ? head + body : Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
