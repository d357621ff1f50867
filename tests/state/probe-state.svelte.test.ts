import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import type { CanonicalUsage } from '#core/usage/canonical-usage.ts';
import type { ComputeClient } from '#io/compute/compute-client.ts';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { AppState } from '#state/app-state.svelte.ts';
import type { LabSessionStore } from '#state/lab-session-store.ts';
import type { MockScriptStep } from '#tests/mock-provider/mock-provider-server.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { computeApi } from '#worker/compute-api.ts';

const compute = {
  generation: 1,
  isRunning: true,
  run: <T>(task: (remote: typeof computeApi) => T) => Promise.resolve(task(computeApi)),
} as unknown as ComputeClient;

const provider = useMockProvider();
/** Priced in the snapshot: $3 / $15 per million input / output tokens. */
const MODEL = 'claude-sonnet-4-20250514';

/** A session store that records the probe usage it is given. */
function recordingStore() {
  const usage: Array<{ sessionId: string; usage: CanonicalUsage; costUsd: number; model: string }> = [];
  const store: LabSessionStore = {
    storeDocument: async () => ({ id: 'stored-demo', title: null }),
    commitCompaction: async () => ({ id: 'next', title: null }),
    addProbeUsage: async (sessionId, recorded, costUsd, model) => {
      usage.push({ sessionId, usage: recorded, costUsd, model });
    },
  };
  return { store, usage };
}

interface RequestBody {
  messages: Array<{ role: string; content: unknown }>;
  system?: unknown;
  tools?: Array<{ name?: string }>;
  tool_choice?: unknown;
}

/**
 * Every request to the mock passes here first: `decide` reads its body and may queue the step
 * that answers it, as `routeMockSteps` does in the browser. The planted values are random, so
 * the replies are written from what the requests carry.
 */
function decideReplies(decide: (body: RequestBody, text: string) => MockScriptStep | null): RequestBody[] {
  const bodies: RequestBody[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.endsWith('/v1/messages') && typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as RequestBody;
      bodies.push(body);
      const step = decide(body, init.body);
      if (step) provider.mock().script([step]);
    }
    return realFetch(input, init);
  });
  return bodies;
}

const PLANTED = /(P\d+) = \\?"([a-z]+-[a-z]+-\d{4})\\?"/g;
const plantedValues = (text: string): Map<string, string> =>
  new Map([...text.matchAll(PLANTED)].map((match) => [match[1]!, match[2]!]));
const isQuestion = (text: string): boolean =>
  text.includes('Earlier in this conversation you were given facts');

async function startApp(store: LabSessionStore, withKey = true): Promise<AppState> {
  const app = new AppState({
    compute,
    settingsRepository: new SettingsRepository(new AppDb(`probe-state-${Math.random()}`)),
    sessions: store,
  });
  await app.start();
  await app.settings.setEstimator('rough');
  await app.provider.update({ baseUrl: provider.mock().url, model: MODEL });
  if (withKey) await app.provider.saveKey('sk-ant-probe-test-1234');
  return app;
}

describe('ProbeState: plant, compact, ask and score against a provider', () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it('runs a whole probe: the summariser sees the planted facts, the question lists the labels, recall is scored', async () => {
    const { store, usage } = recordingStore();
    let probeSummary: string | null = null;
    const bodies = decideReplies((_body, text) => {
      if (isQuestion(text)) {
        // P1 right (in capitals), P2 wrong, P3 unknown, P4 no line, P5 right though not in the context.
        const values = plantedValues(probeSummary ?? '');
        return {
          kind: 'reply',
          text: `Sure:\n- P3: unknown\n- P1: ${values.get('P1')!.toUpperCase()}\n- P2: wrong-guess-0000\nP5: "${plantedAll.get('P5')}"`,
        };
      }
      const values = plantedValues(text);
      if (values.size === 0) return { kind: 'reply', text: 'REPLAY SUMMARY' };
      plantedAll = values;
      // The summary keeps P1–P3 and loses P4 and P5.
      probeSummary = ['P1', 'P2', 'P3'].map((label) => `${label} = "${values.get(label)}"`).join('\n');
      return { kind: 'reply', text: `## Goal\nKeep going.\n\n## Facts\n${probeSummary}` };
    });
    let plantedAll = new Map<string, string>();
    const app = await startApp(store);
    await app.replay.runAll();
    const run = app.replay.current!;
    expect(run.compressed).toBe(true);
    const probe = (await app.replay.probeFor(run))!;
    expect(probe.unavailable).toBeNull();
    expect(probe.count).toBe(5);
    expect(probe.answerModel).toBe(MODEL);
    // Hermes writes one summary: one summariser call and the question.
    expect(probe.estimate!.calls).toBe(2);
    expect(probe.estimate!.usd).not.toBeNull();
    const before = bodies.length;

    await probe.run();

    expect(probe.error).toBeNull();
    expect(probe.status).toBe('done');
    const sent = bodies.slice(before);
    expect(sent).toHaveLength(2);
    // The summariser's prompt carries all five planted facts, each labelled as a probe.
    const summaryPrompt = JSON.stringify(sent[0]!.messages);
    expect(plantedValues(summaryPrompt).size).toBe(5);
    expect(summaryPrompt).toContain('[Context Lab probe]');
    // The question: the compacted context, then the labels. The context keeps tool calls, so
    // the tools they name are defined (the API, and the mock, refuse tool blocks without
    // definitions) and none may be called.
    const question = sent[1]!;
    expect(question.tool_choice).toEqual({ type: 'none' });
    const defined = new Set((question.tools ?? []).map((tool) => tool.name));
    const called = question.messages.flatMap((message) =>
      Array.isArray(message.content)
        ? (message.content as Array<{ type?: string; name?: string }>)
            .filter((block) => block.type === 'tool_use')
            .map((block) => block.name)
        : [],
    );
    expect(called.length).toBeGreaterThan(0);
    for (const name of called) expect(defined.has(name)).toBe(true);
    const last = JSON.stringify(question.messages.at(-1)!.content);
    for (const label of ['P1', 'P2', 'P3', 'P4', 'P5']) expect(last).toContain(`${label}: <value>`);
    expect(JSON.stringify(question.messages)).toContain(plantedAll.get('P1')!);

    const score = probe.score!;
    expect(score.facts.map((fact) => [fact.label, fact.outcome, fact.inCompactedContext])).toEqual([
      ['P1', 'recalled', true],
      ['P2', 'wrong', true],
      ['P3', 'unknown', true],
      ['P4', 'missing', false],
      ['P5', 'recalled', false],
    ]);
    expect(score.recall).toBe(0.4);
    for (const fact of score.facts) expect(fact.value).toBe(plantedAll.get(fact.label));

    // Both billed calls, recorded as probe usage on the stored transcript, priced.
    expect(probe.calls.map((call) => call.name)).toEqual(['summary 1', 'question']);
    expect(usage.map((entry) => [entry.sessionId, entry.model])).toEqual([
      ['stored-demo', MODEL],
      ['stored-demo', MODEL],
    ]);
    for (const [index, call] of probe.calls.entries()) {
      expect(call.usage.inputTokens).toBeGreaterThan(0);
      expect(usage[index]!.usage).toEqual(call.usage);
      expect(call.costUsd).toBeCloseTo((call.usage.inputTokens * 3 + call.usage.outputTokens * 15) / 1e6, 9);
    }
    // The session on screen is untouched: the planted messages were never stored.
    expect(app.transcript.view!.count).toBe(buildDemoTranscript().messages.length);
  });

  it('says why it cannot run without a key, and sends nothing', async () => {
    const { store } = recordingStore();
    const bodies = decideReplies(() => null);
    const app = await startApp(store, false);
    await app.replay.runAll();
    const probe = (await app.replay.probeFor(app.replay.current!))!;
    expect(probe.unavailable).toContain('needs a provider key');
    await probe.run();
    expect(probe.status).toBe('idle');
    expect(bodies).toHaveLength(0);
  });

  it('names the failed call and the provider’s message, and shows no score', async () => {
    const { store, usage } = recordingStore();
    decideReplies((_body, text) => {
      if (isQuestion(text))
        return {
          kind: 'error',
          status: 400,
          body: {
            type: 'error',
            error: { type: 'invalid_request_error', message: 'probe question refused' },
          },
        };
      return { kind: 'reply', text: 'A SUMMARY' };
    });
    const app = await startApp(store);
    await app.replay.runAll();
    const probe = (await app.replay.probeFor(app.replay.current!))!;
    await probe.run();
    expect(probe.status).toBe('failed');
    expect(probe.error).toMatch(/^The question call failed: .*probe question refused/);
    expect(probe.score).toBeNull();
    // The summariser call was billed and is recorded.
    expect(usage).toHaveLength(1);
  });

  it('cancels a running probe: the summariser request is aborted and no score is shown', async () => {
    const { store } = recordingStore();
    let probing = false;
    const bodies = decideReplies(() =>
      probing ? { kind: 'timeout' } : { kind: 'reply', text: 'A SUMMARY' },
    );
    const app = await startApp(store);
    await app.replay.runAll();
    const probe = (await app.replay.probeFor(app.replay.current!))!;
    probing = true;
    const count = bodies.length;
    const running = probe.run();
    await vi.waitFor(() => expect(bodies.length).toBe(count + 1));
    expect(probe.running).toBe(true);
    probe.cancel();
    await running;
    expect(probe.status).toBe('cancelled');
    expect(probe.score).toBeNull();
    expect(bodies.length).toBe(count + 1);
  });

  it('stops a running probe when the replay starts over', async () => {
    const { store } = recordingStore();
    let probing = false;
    const bodies = decideReplies(() =>
      probing ? { kind: 'timeout' } : { kind: 'reply', text: 'A SUMMARY' },
    );
    const app = await startApp(store);
    await app.replay.runAll();
    const probe = (await app.replay.probeFor(app.replay.current!))!;
    probing = true;
    const count = bodies.length;
    const running = probe.run();
    await vi.waitFor(() => expect(bodies.length).toBe(count + 1));
    probing = false;
    app.replay.reset();
    await running;
    expect(probe.status).toBe('cancelled');
  });
});
