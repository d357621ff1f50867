/**
 * Differential test of the one compaction operation: every strategy's `compactConversation`
 * (and the planner's plan before it) on seeded generated transcripts — non-ASCII text, secrets,
 * images, huge and odd tool arguments, a 2026-04 raise, the 10,000-message bench session — must
 * reproduce, field for field, what the implementation produced before compress() was made
 * faster (issue 17). The goldens were recorded by that implementation: a digest of every
 * field (any one-character change alters it) and two small cases in full, for reading.
 *
 * An intended change of behaviour re-records them: `UPDATE_GOLDEN=true npx vitest run
 * tests/core/strategies/compact-conversation.differential.test.ts`, and the diff of the
 * fixtures is reviewed with the change.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import type { Summarizer } from '#core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import {
  compactConversation,
  type ConversationCompactionInput,
} from '#core/strategies/compact-conversation.ts';
import type { Strategy } from '#core/strategies/strategy.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { Transcript } from '#core/transcript/transcript.ts';
import { canonicalValue, fieldDigests } from '#tests/helpers/canonical-digest.ts';
import { spicedAgentTranscript } from '#tests/helpers/spiced-agent-transcript.ts';

const GOLDEN_DIR = resolve(import.meta.dirname, '../../fixtures/compaction-golden');
const DIGESTS_PATH = join(GOLDEN_DIR, 'digests.json');
const UPDATE = process.env.UPDATE_GOLDEN === 'true';

/** How a case calls the operation. */
type Mode = 'direct' | 'planner' | 'variant' | 'failing' | 'override';

interface TranscriptCase {
  readonly name: string;
  readonly make: () => Transcript;
  readonly modes: readonly Mode[];
  /** Stored in full (small transcripts only), for these strategies. */
  readonly full?: readonly string[];
}

const TRANSCRIPTS: readonly TranscriptCase[] = [
  {
    name: 'tiny-30-s3',
    make: () => spicedAgentTranscript({ messageCount: 30, seed: 3, maxTextChars: 400 }),
    modes: ['planner'],
    full: ['hermes-2026-04', 'hermes-2026-07'],
  },
  {
    name: 'spiced-300-s7',
    make: () => spicedAgentTranscript({ messageCount: 300, seed: 7 }),
    modes: ['direct', 'planner', 'variant', 'failing', 'override'],
  },
  {
    name: 'spiced-1200-s11',
    make: () => spicedAgentTranscript({ messageCount: 1200, seed: 11 }),
    modes: ['direct', 'planner', 'variant'],
  },
  {
    name: 'raising-400-s5',
    make: () => spicedAgentTranscript({ messageCount: 400, seed: 5, raising: true }),
    modes: ['direct', 'planner'],
  },
  {
    name: 'bench-10000-s1',
    make: () => generateAgentTranscript({ messageCount: 10_000, seed: 1 }),
    modes: ['planner'],
  },
];

const WINDOW = 128_000;
const config: CompressionConfig = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: WINDOW };
const smallConfig: CompressionConfig = {
  ...DEFAULT_COMPRESSION_CONFIG,
  contextLength: 32_000,
  protectFirstN: 2,
  protectLastN: 6,
};
const laterState: CompressorState = {
  ...INITIAL_COMPRESSOR_STATE,
  compressionCount: 1,
  previousSummary:
    '## Goal\nShip the billing fix — café edition ✓\n\n## Completed Actions\n1. READ app/billing.py',
  lastPromptTokens: 90_000,
};

const failingSummarizer: Summarizer = {
  label: 'failing provider',
  offline: false,
  summarize: () => Promise.reject(new Error('503 Service Unavailable: upstream overloaded')),
};

async function runCase(strategy: Strategy, transcript: Transcript, mode: Mode) {
  const { messages } = transcript;
  const tools = transcript.metadata.tools ?? [];
  const deps = { summarizer: createOfflineSummarizer(), now: () => 1_000_000 };
  const base: ConversationCompactionInput = {
    reason: 'manual',
    systemPrompt: '',
    messages,
    tools,
    config,
    state: INITIAL_COMPRESSOR_STATE,
    force: true,
    today: null,
  };
  if (mode === 'direct') return { outcome: await compactConversation(strategy, base, deps), plan: null };
  if (mode === 'failing')
    return {
      outcome: await compactConversation(strategy, base, { ...deps, summarizer: failingSummarizer }),
      plan: null,
    };
  const variant = mode === 'variant';
  const planConfig = variant ? smallConfig : config;
  const state = variant ? laterState : INITIAL_COMPRESSOR_STATE;
  const planner = createPlanner(messages, { tools });
  const plan = planner.plan(strategy, { config: planConfig, state, estimator: 'rough', nowMs: 0 });
  const planned: ConversationCompactionInput = {
    ...base,
    reason: 'replay',
    config: planConfig,
    state,
    prepared: planner.prepared(strategy),
    tokens: { of: (index) => plan.tokensPerMessage[index] ?? 0, request: plan.totalTokens, exact: false },
    currentTokens: plan.triggerTokens,
  };
  if (mode === 'planner') return { outcome: await compactConversation(strategy, planned, deps), plan };
  if (mode === 'override')
    return {
      outcome: await compactConversation(
        strategy,
        {
          ...planned,
          tailTokenBudgetOverride: 5_000,
          summaryOverrides: ['Reviewed summary ✓ — keep the billing fix.', 'A second reviewed body.'],
        },
        deps,
      ),
      plan,
    };
  const count = messages.length;
  return {
    outcome: await compactConversation(
      strategy,
      {
        ...planned,
        reason: 'hygiene',
        systemPrompt: 'You are Hermes — a careful agent.',
        pinned: new Set([5, Math.floor(count / 2), count - 3]),
        focusTopic: 'billing — café 😀',
        today: '2026-11-25',
        mainModel: 'claude-sonnet-4-6',
        memoryContext: 'User prefers <pytest> & tabs ✓ — never commit secrets like sk-test-abcdefghijklmnop.',
      },
      deps,
    ),
    plan,
  };
}

interface Golden {
  readonly cases: Record<string, Record<string, string>>;
}

const recorded: Record<string, Record<string, string>> = {};
const golden: Golden | null = existsSync(DIGESTS_PATH)
  ? (JSON.parse(readFileSync(DIGESTS_PATH, 'utf8')) as Golden)
  : null;

const DESCEND = ['outcome', 'outcome.compaction', 'outcome.compaction.hermes'];

describe('compactConversation reproduces the recorded outputs', () => {
  for (const transcriptCase of TRANSCRIPTS) {
    describe(transcriptCase.name, () => {
      let transcript: Transcript | null = null;
      const load = (): Transcript => (transcript ??= transcriptCase.make());
      for (const mode of transcriptCase.modes) {
        for (const strategy of STRATEGIES) {
          const name = `${transcriptCase.name}/${mode}/${strategy.name}`;
          it(`${mode} ${strategy.name}`, { timeout: 60_000 }, async () => {
            const { outcome, plan } = await runCase(strategy, load(), mode);
            const result = { outcome, plan };
            const digests = fieldDigests(result, DESCEND);
            recorded[name] = digests;
            const fullPath = join(GOLDEN_DIR, 'full', `${name.replaceAll('/', '--')}.json`);
            const full = transcriptCase.full?.includes(strategy.name) ?? false;
            if (UPDATE) {
              if (full) {
                mkdirSync(join(GOLDEN_DIR, 'full'), { recursive: true });
                writeFileSync(fullPath, `${JSON.stringify(canonicalValue(result), null, 1)}\n`);
              }
              return;
            }
            expect(golden, `${DIGESTS_PATH} is missing: record it with UPDATE_GOLDEN=true`).not.toBeNull();
            if (full) expect(canonicalValue(result)).toEqual(JSON.parse(readFileSync(fullPath, 'utf8')));
            expect(digests).toEqual(golden!.cases[name]);
          });
        }
      }
    });
  }

  it('covers every recorded case', () => {
    if (UPDATE) return;
    expect(Object.keys(golden?.cases ?? {}).sort()).toEqual(Object.keys(recorded).sort());
  });

  afterAll(() => {
    if (!UPDATE) return;
    mkdirSync(GOLDEN_DIR, { recursive: true });
    const sorted = Object.fromEntries(
      Object.keys(recorded)
        .sort()
        .map((key) => [key, recorded[key]!]),
    );
    writeFileSync(DIGESTS_PATH, `${JSON.stringify({ cases: sorted }, null, 1)}\n`);
  });
});
