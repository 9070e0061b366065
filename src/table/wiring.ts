import { CONNECTOR_OPERATORS } from "../connectors/operators.js";
import { EXEC_OPERATORS } from "../exec/core-operators.js";
import { localExecutor } from "../exec/executor.js";
import type { Executor } from "../exec/job-contract.js";
import type { OperatorTable } from "../exec/operator-table.js";

/**
 * The one place the floors are wired together: the operator factory of every plan node kind (exec's
 * own, plus the connectors' scan and sink) and the executor the facade runs its jobs on. Plain data
 * and plain imports — nothing is registered at module load, so any entry point (the package index,
 * `tablestream/testing`, a test importing one module) sees the same wiring.
 */
export const OPERATORS: OperatorTable = { ...EXEC_OPERATORS, ...CONNECTOR_OPERATORS };

export const LOCAL_EXECUTOR: Executor = localExecutor(OPERATORS);
