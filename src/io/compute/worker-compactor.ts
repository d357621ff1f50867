import type { Summarizer, SummaryRequest } from '../../core/compression/summarizer.ts';
import type { Compactor } from '../runtime/run-compaction.ts';
import { workerCallback, type ComputeClient, type CompactReply } from './compute-client.ts';

/**
 * The live chat's compactor: the one compaction operation runs in the worker, like the lab's,
 * and calls back here for the summary (the provider key and the network stay on the page). A
 * cancelled turn aborts the summary call; the worker is not terminated, so the lab's open
 * documents survive, and the runtime drops the result before anything is stored.
 */
export function workerCompactor(compute: ComputeClient): Compactor {
  return (request, summarizer: Summarizer, signal) => {
    const summarize = summarizer.offline
      ? undefined
      : workerCallback((summaryRequest: SummaryRequest) => summarizer.summarize(summaryRequest, signal));
    return compute.run<CompactReply>((api) =>
      api.compactConversation(request, summarizer.offline ? null : summarizer.label, summarize),
    );
  };
}
