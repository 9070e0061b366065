import { ValidationError } from "../types/errors.js";

/**
 * Unique identifiers of PTF calls (PTF rule 14). A set-semantics call keeps state that must
 * be found again (checkpoints, query evolution), so it has a uid: the implicit `uid` argument, or else
 * the function's name. Row-semantics and table-less calls need none. Uids follow
 * `[a-zA-Z_][a-zA-Z-_0-9]*` and must be unique in a job, except that identical calls with the same uid
 * are merged into one operator.
 */
const UID_FORMAT = /^[a-zA-Z_][a-zA-Z\-_0-9]*$/;

export function isValidUid(uid: string): boolean {
  return UID_FORMAT.test(uid);
}

export function checkUidFormat(uid: unknown): void {
  if (typeof uid !== "string" || !isValidUid(uid)) {
    throw new ValidationError(
      "Invalid unique identifier for process table function. The `uid` argument must be a string literal that follows the pattern [a-zA-Z_][a-zA-Z-_0-9]*. "
      + `But found: ${typeof uid === "string" ? uid : String(uid)}`,
    );
  }
}

/** The uid of an unnamed function called inline without `uid` (unique as long as the job has one such call). */
export const ANONYMOUS_UID = "anonymous_ptf";

/**
 * The uid of a set-semantics call without `uid` argument: the registered or declared name of the
 * function, if it qualifies; `anonymous_ptf` for an unnamed function object called inline.
 */
export function deriveUid(name: string | undefined, displayName: string): string {
  if (name === undefined) return ANONYMOUS_UID;
  if (!isValidUid(name)) {
    throw new ValidationError(
      `Could not derive a unique identifier for process table function '${displayName}'. The function's name does not qualify for a UID. `
      + "Please provide a custom identifier using the implicit `uid` argument. For example: myFunction(..., uid => 'my-id')",
    );
  }
  return name;
}

export function duplicateUidMessage(uid: string, derived: boolean): string {
  const hint = !derived ? ""
    : uid === ANONYMOUS_UID ? " (Both calls are of unnamed functions without `uid` argument: name the functions with ProcessTableFunction.define({ name: ... }) or pass `uid`.)"
    : ` ('${uid}' is the function's name, used when a call has no \`uid\` argument: a stateful PTF called twice needs a \`uid\` per call.)`;
  return `Duplicate unique identifier '${uid}' detected among process table functions. Make sure that all PTF calls have an identifier defined that is globally unique.${hint}`;
}
