/**
 * A streaming RFC 4180 CSV parser that keeps what the filesystem connector needs and a general-purpose
 * library makes expensive (csv-parse with per-field quoting info ran at ~0.05 M rows/s here): whether a
 * field was quoted (an unquoted empty field is NULL, `""` the empty string), the line each record starts
 * on, and recovery after a malformed record. Chunks are fed as they are read; records come out through a
 * callback with their fields as `string | null`.
 *
 * Rules: records end at `\n`, `\r\n` or `\r` outside quotes; a quoted field may span lines; inside quotes
 * the quote is doubled (`""`) or, with an escape character, escaped (`\"`, `\\`); a quote inside an
 * unquoted field is an ordinary character; after a closing quote only the delimiter or the end of the
 * record may follow; with comments enabled, a line starting with `#` is skipped.
 */
export interface CsvParserOptions {
  readonly delimiter: string;
  /** The quote character, or false when quoting is disabled. */
  readonly quote: string | false;
  /** An escape character inside quotes; undefined: quotes are doubled. */
  readonly escape: string | undefined;
  readonly comments: boolean;
  /** An unquoted field equal to it is NULL. */
  readonly nullLiteral: string | undefined;
}

export type RecordCallback = (fields: (string | null)[], line: number) => void;
export type MalformedCallback = (line: number, column: number, message: string) => void;

const enum S {
  /** At the start of a field (nothing read yet). */
  FieldStart,
  /** In an unquoted field. */
  Unquoted,
  /** In a quoted field. */
  Quoted,
  /** In a quoted field, just after a quote (doubled-quote mode): a quote follows, or the field ended. */
  QuoteInQuoted,
  /** In a quoted field, just after the escape character. */
  Escaped,
  /** After the closing quote of a field. */
  AfterQuote,
  /** Skipping the rest of a line (a comment, or a malformed record). */
  SkipLine,
}

export class CsvParser {
  private state = S.FieldStart;
  private field = "";
  private fields: (string | null)[] = [];
  /** Line being read (1-based) and the line the current record started on. */
  private line = 1;
  private recordLine = 1;
  private quotedStart = 1;
  /** A `\r` ended the previous chunk: a `\n` starting the next one belongs to it. */
  private pendingCR = false;
  private recordStarted = false;
  /** The last character read inside quotes was `\r` (a `\n` right after it is the same line break). */
  private quotedCR = false;
  private readonly d: number;
  private readonly q: number;
  private readonly e: number;
  /**
   * After `push`: the index in the chunk just past the last line break that ended a record (or a skipped
   * line), -1 when none did — where a reader can resume (a byte offset at a record boundary).
   */
  recordEnd = -1;

  /** `firstLine` / `afterCR`: resuming at a record boundary of an earlier run (its line, and whether a `\r` ended it). */
  constructor(private readonly o: CsvParserOptions, private readonly onRecord: RecordCallback, private readonly onMalformed: MalformedCallback, firstLine = 1, afterCR = false) {
    this.line = firstLine;
    this.recordLine = firstLine;
    this.pendingCR = afterCR;
    this.d = o.delimiter.charCodeAt(0);
    this.q = o.quote === false ? -1 : o.quote.charCodeAt(0);
    this.e = o.escape === undefined || o.escape === o.quote ? -1 : o.escape.charCodeAt(0);
  }

  /** Parses a chunk; complete records are handed out, a partial one is kept for the next chunk. */
  push(chunk: string): void {
    const n = chunk.length;
    const D = this.d, Q = this.q, E = this.e;
    let i = 0;
    this.recordEnd = -1;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (n > 0 && chunk.charCodeAt(0) === 10) i = 1;
    }
    // start of the run of characters not yet copied into `field`
    let run = i;
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      const nl = c === 10 || c === 13;
      switch (this.state) {
        case S.FieldStart:
          if (!this.recordStarted) {
            this.recordStarted = true;
            this.recordLine = this.line;
            if (this.o.comments && c === 35 /* # */) { this.state = S.SkipLine; continue; }
          }
          if (c === Q) { this.state = S.Quoted; this.quotedStart = this.line; this.quotedCR = false; run = i + 1; continue; }
          if (c === D) { this.fields.push(this.unquoted("")); run = i + 1; continue; }
          if (nl) { this.fields.push(this.unquoted("")); i = this.endRecord(chunk, i); run = i + 1; continue; }
          this.state = S.Unquoted;
          run = i;
          continue;
        case S.Unquoted:
          if (c === D) { this.fields.push(this.unquoted(this.field + chunk.slice(run, i))); this.field = ""; this.state = S.FieldStart; run = i + 1; continue; }
          if (nl) {
            this.fields.push(this.unquoted(this.field + chunk.slice(run, i)));
            this.field = "";
            i = this.endRecord(chunk, i);
            run = i + 1;
          }
          continue;
        case S.Quoted:
          // a line break inside quotes counts once: `\r\n` is one, even when a chunk ends between the two
          if (c === 13) this.line++;
          else if (c === 10 && !this.quotedCR) this.line++;
          this.quotedCR = c === 13;
          if (c === E) { this.field += chunk.slice(run, i); this.state = S.Escaped; continue; }
          if (c === Q) {
            this.field += chunk.slice(run, i);
            this.state = E === -1 ? S.QuoteInQuoted : S.AfterQuote;
            run = i + 1;
          }
          continue;
        case S.Escaped:
          if (c === 13) this.line++;
          else if (c === 10 && !this.quotedCR) this.line++;
          this.quotedCR = c === 13;
          this.field += chunk[i];
          this.state = S.Quoted;
          run = i + 1;
          continue;
        case S.QuoteInQuoted:
          if (c === Q) { this.field += chunk[i]; this.state = S.Quoted; run = i + 1; continue; }
          // the quote closed the field: read this character again after it
          this.state = S.AfterQuote;
          i--;
          continue;
        case S.AfterQuote:
          if (c === D) { this.fields.push(this.field); this.field = ""; this.state = S.FieldStart; run = i + 1; continue; }
          if (nl) { this.fields.push(this.field); this.field = ""; i = this.endRecord(chunk, i); run = i + 1; continue; }
          this.malformed(this.fields.length + 1, `unexpected character '${chunk[i]}' after the closing quote of a field`);
          this.state = S.SkipLine;
          continue;
        case S.SkipLine:
          if (nl) {
            this.line++;
            if (c === 13) {
              if (i + 1 < n) { if (chunk.charCodeAt(i + 1) === 10) i++; } else this.pendingCR = true;
            }
            this.reset();
            run = i + 1;
            this.recordEnd = run;
          }
          continue;
      }
    }
    // keep the unfinished field's characters
    if (this.state === S.Unquoted || this.state === S.Quoted) this.field += chunk.slice(run, n);
  }

  /** The line the next record starts on. */
  get currentLine(): number {
    return this.line;
  }

  /** Whether the last chunk ended in a `\r` (a `\n` starting the next chunk belongs to it). */
  get endsInCR(): boolean {
    return this.pendingCR;
  }

  /** End of input: a record without a final line break is complete; an open quote is malformed. */
  end(): void {
    switch (this.state) {
      case S.Quoted:
      case S.Escaped:
        this.malformed(this.fields.length + 1, `a quoted field opened on line ${this.quotedStart} is not closed at the end of the file`);
        this.reset();
        return;
      case S.Unquoted:
        this.fields.push(this.unquoted(this.field));
        break;
      case S.QuoteInQuoted:
      case S.AfterQuote:
        this.fields.push(this.field);
        break;
      case S.FieldStart:
        if (!this.recordStarted) return;
        this.fields.push(this.unquoted(""));
        break;
      case S.SkipLine:
        this.reset();
        return;
    }
    this.onRecord(this.fields, this.recordLine);
    this.reset();
  }

  private unquoted(text: string): string | null {
    return text === "" || text === this.o.nullLiteral ? null : text;
  }

  /** A line break at `i` ends the record; returns the index of its last character (`\r\n` is one break). */
  private endRecord(chunk: string, i: number): number {
    let last = i;
    if (chunk.charCodeAt(i) === 13) {
      if (i + 1 < chunk.length) { if (chunk.charCodeAt(i + 1) === 10) last = i + 1; } else this.pendingCR = true;
    }
    const fields = this.fields;
    const line = this.recordLine;
    this.line++;
    this.reset();
    this.recordEnd = last + 1;
    this.onRecord(fields, line);
    return last;
  }

  private malformed(column: number, message: string): void {
    this.onMalformed(this.recordLine, column, message);
  }

  private reset(): void {
    this.fields = [];
    this.field = "";
    this.state = S.FieldStart;
    this.recordStarted = false;
  }
}
