import { findStrategy } from '#core/strategies/strategy-registry.ts';
import type { Compactor } from '#io/runtime/run-compaction.ts';
import { runLabCompaction } from '#worker/compress-service.ts';

/**
 * The app's compactor without the worker: the same `runLabCompaction` the worker runs, called in
 * process, so Node tests of the live loop go through the one compaction operation too.
 */
export const inProcessCompactor: Compactor = (request, summarizer, signal) => {
  const strategy = findStrategy(request.strategy);
  if (!strategy) throw new Error(`Unknown strategy '${request.strategy}'`);
  const remote = summarizer.offline
    ? null
    : {
        label: summarizer.label,
        summarize: (summaryRequest: Parameters<typeof summarizer.summarize>[0]) =>
          summarizer.summarize(summaryRequest, signal),
      };
  return runLabCompaction(
    { messages: request.messages, tools: request.tools },
    strategy,
    request,
    remote,
    () => performance.now(),
  );
};
