/**
 * Every workload of `npm run bench`, in report order: one file each, implementing bench/workload.ts.
 */
import type { Workload } from "../workload.js";
import { W0 } from "./w0-project.js";
import { W1 } from "./w1-filter.js";
import { W2 } from "./w2-group-count.js";
import { W2MB } from "./w2-mini-batch.js";
import { W3 } from "./w3-tumble-window.js";
import { W4 } from "./w4-batch-sum.js";
import { W5 } from "./w5-ptf-state.js";
import { W7 } from "./w7-join.js";
import { W8 } from "./w8-top-n.js";
import { W6 } from "./w6-ptf-timers.js";

export const WORKLOADS: readonly Workload[] = [W0, W1, W2, W2MB, W3, W4, W5, W6, W7, W8];
