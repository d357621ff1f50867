/** Contract alias: the implementation lives in compute-summary-budget.ts (file named after its export). */
export { computeSummaryBudget, MIN_SUMMARY_TOKENS, SUMMARY_RATIO } from './compute-summary-budget.ts';
