// Bytes written into a buffer that grows as needed: the RESP of a JSON command body (json-args.ts) and a JSON
// body made from Redis's reply bytes (resp-json.ts) are both written this way, byte by byte in hot loops.

export class ByteWriter {
  protected buf: Buffer;
  /** Bytes written so far. */
  length = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Makes room for `n` more bytes: the buffer doubles (at least), keeping what was written. */
  protected room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.length + n));
    this.buf.copy(grown, 0, 0, this.length);
    this.buf = grown;
  }

  /** What was written (a view of the buffer, not a copy). */
  done(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}
