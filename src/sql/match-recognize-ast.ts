import type { ExprNode } from "../expressions/node.js";

/** A PATTERN clause as written: variables by name with their positions (the binder numbers them). */
export type PatternAst =
  | { readonly kind: "var"; readonly name: string; readonly pos: number }
  | { readonly kind: "seq"; readonly terms: readonly PatternAst[] }
  | { readonly kind: "alt"; readonly terms: readonly PatternAst[] }
  | { readonly kind: "quant"; readonly term: PatternAst; readonly min: number; readonly max: number | undefined; readonly greedy: boolean; readonly pos: number };

/** `t MATCH_RECOGNIZE ( ... ) [AS] alias`: the clause's parts in the order Flink reads them. */
export interface MatchRecognizeClause {
  readonly pos: number;
  readonly partitionBy: readonly { readonly expr: ExprNode; readonly pos: number }[];
  readonly orderBy: readonly { readonly expr: ExprNode; readonly ascending: boolean; readonly nullsFirst: boolean | undefined; readonly pos: number }[];
  readonly orderPos: number | undefined;
  readonly measures: readonly { readonly expr: ExprNode; readonly alias: string | undefined; readonly pos: number }[];
  readonly after: { readonly kind: "PAST_LAST_ROW" | "TO_NEXT_ROW" | "TO_FIRST" | "TO_LAST"; readonly variable?: string; readonly pos: number };
  readonly pattern: PatternAst;
  readonly patternPos: number;
  readonly within: { readonly expr: ExprNode; readonly pos: number } | undefined;
  readonly define: readonly { readonly variable: string; readonly expr: ExprNode; readonly pos: number }[];
}
