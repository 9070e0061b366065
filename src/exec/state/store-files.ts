import { closeSync, fsyncSync, openSync, readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { ExecutionError } from "../../types/errors.js";
import { decodeKey, decodeValue } from "./store-codec.js";

/**
 * The files a disk store writes into a checkpoint: one line per key, `<key>\t<value>` for a key that
 * holds a value and `<key>` alone for a key deleted since the previous file (incremental files only).
 * Keys and values are the store's JSON text (store-codec.ts), which never contains a raw tab or newline.
 * Written and read in chunks, so a store larger than memory goes through a bounded buffer.
 */
const CHUNK = 1 << 20;

export class StoreFileWriter {
  private readonly fd: number;
  private buf = "";
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, "w");
  }

  put(key: string, value: string): void {
    this.buf += `${key}\t${value}\n`;
    if (this.buf.length >= CHUNK) this.drain();
  }

  delete(key: string): void {
    this.buf += `${key}\n`;
    if (this.buf.length >= CHUNK) this.drain();
  }

  /** Writes the rest and flushes the file to disk (the checkpoint or savepoint listing it is renamed into place after). */
  close(): void {
    try {
      this.drain();
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
    }
  }

  private drain(): void {
    if (this.buf.length === 0) return;
    this.bytes += writeSync(this.fd, this.buf);
    this.buf = "";
  }
}

/**
 * Applies the files of a store's checkpoint, oldest first: `apply(key, value)` for a key holding a value,
 * `apply(key, undefined)` for a deleted one. A file that is missing or damaged is an ExecutionError naming it.
 */
export function readStoreFiles(files: readonly string[], apply: (key: unknown, value: unknown) => void): void {
  const buf = Buffer.allocUnsafe(CHUNK);
  for (const file of files) {
    let fd: number;
    try {
      fd = openSync(file, "r");
    } catch (e) {
      throw new ExecutionError(`state file ${file} of the checkpoint is missing or unreadable: ${(e as Error).message}`, { cause: e });
    }
    try {
      let rest = "";
      let line = 0;
      // a multi-byte character cut by a chunk's end is completed by the decoder with the next chunk
      const decoder = new StringDecoder("utf8");
      for (;;) {
        const n = readSync(fd, buf, 0, CHUNK, null);
        if (n === 0) break;
        const text = rest + decoder.write(buf.subarray(0, n));
        const end = text.lastIndexOf("\n");
        rest = text.slice(end + 1);
        let at = 0;
        while (at <= end) {
          const nl = text.indexOf("\n", at);
          line++;
          applyLine(text.slice(at, nl), apply, file, line);
          at = nl + 1;
        }
      }
      if (rest.length > 0) throw new ExecutionError(`state file ${file} is damaged: its last line is incomplete`);
    } finally {
      closeSync(fd);
    }
  }
}

function applyLine(text: string, apply: (key: unknown, value: unknown) => void, file: string, line: number): void {
  const tab = text.indexOf("\t");
  try {
    if (tab < 0) apply(decodeKey(text), undefined);
    else apply(decodeKey(text.slice(0, tab)), decodeValue(text.slice(tab + 1)));
  } catch (e) {
    if (e instanceof ExecutionError) throw e;
    throw new ExecutionError(`state file ${file} is damaged at line ${line}: ${(e as Error).message}`, { cause: e });
  }
}
