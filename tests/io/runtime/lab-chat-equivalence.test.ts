/**
 * The lab and the chat compact through one operation: for the same conversation, strategy,
 * settings and summariser, a `/compress` in the chat stores exactly what the lab's replay shows.
 * (Round 1 had the two drift apart: chat and map used different windows and code paths.)
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { expectOk } from '#tests/helpers/session-repository-fixture.ts';
import { computeApi } from '#worker/compute-api.ts';
import { createRuntimeFixture, noAbort } from './runtime-fixture.ts';

const provider = useMockProvider();
const WINDOW_TOKENS = 64_000;
const SYSTEM_PROMPT = 'You are a careful coding assistant.';
const TODAY = '2027-01-15';
/** The demo conversation as a chat holds it: the system prompt lives on the session, not in the list. */
const conversation = buildDemoTranscript().messages.filter((message) => message.role !== 'system');
/** Pinned in the variant with pins: a tool result inside a call group and an assistant answer, mid-conversation. */
const PINNED = [6, 22];

describe('lab ≡ chat: one compaction operation', () => {
  it.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))(
    '%s: a chat /compress stores what the lab replay of the same conversation produces',
    async (name, strategy) => {
      const fixture = createRuntimeFixture({
        label: `equivalence-${name}`,
        mock: provider.mock(),
        strategy,
        contextLength: WINDOW_TOKENS,
        systemPrompt: SYSTEM_PROMPT,
      });
      // No key: both sides summarise with the offline summariser, so the summaries can match.
      fixture.settings = { ...fixture.settings, provider: null };
      const session = expectOk(
        await fixture.repository.createSession(
          { title: 'equivalence', source: 'chat', model: null, systemPrompt: SYSTEM_PROMPT },
          conversation,
        ),
      );
      await fixture.runtime.resume(session.id);
      const result = await fixture.runtime.sendUserMessage('/compress', noAbort());
      expect(result.outcome).toBe('completed');
      const [end] = fixture.eventsOf('compaction-end');

      computeApi.openDocument(`equivalence-${name}`, conversation, name, {
        tools: BROWSER_TOOL_SCHEMAS,
        compactionPoints: [],
      });
      const lab = expectOk(
        await computeApi.compress(
          `equivalence-${name}`,
          {
            strategy: name,
            config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: WINDOW_TOKENS },
            systemPrompt: SYSTEM_PROMPT,
            today: TODAY,
            mainModel: null,
            reason: 'manual',
          },
          null,
        ),
      );

      if (lab.skipped !== null) {
        // Neither side compacted (the strategy had nothing to do at this size).
        expect(end?.outcome).toBe('skipped');
        return;
      }
      // Committed the strategy's host preset's way: in place (2026-07) or by rotation (2026-04).
      expect(end?.outcome).toBe(strategy.preset.sessions.compaction === 'in-place' ? 'in-place' : 'rotated');
      expect(await fixture.repository.loadMessages(end!.sessionId)).toEqual(lab.messages);
      expect(end!.messagesAfter).toBe(lab.messages.length);
      expect(end!.tokensAfter).toBe(lab.requestTokensAfter);
      expect(end!.assessment!.fidelity).toEqual(lab.assessment!.fidelity);
    },
  );

  it.each(STRATEGIES.map((strategy) => [strategy.name, strategy] as const))(
    '%s: with pinned messages in the stored session, the chat stores what the lab produces with the same pins, pins included',
    async (name, strategy) => {
      const fixture = createRuntimeFixture({
        label: `equivalence-pins-${name}`,
        mock: provider.mock(),
        strategy,
        contextLength: WINDOW_TOKENS,
        systemPrompt: SYSTEM_PROMPT,
      });
      fixture.settings = { ...fixture.settings, provider: null };
      const session = expectOk(
        await fixture.repository.createSession(
          { title: 'equivalence pins', source: 'chat', model: null, systemPrompt: SYSTEM_PROMPT },
          conversation,
        ),
      );
      // Pinned in the lab's message list: the flags on the stored rows.
      const entries = await fixture.repository.loadMessageEntries(session.id);
      for (const index of PINNED)
        expectOk(await fixture.repository.setMessagePinned(session.id, entries[index]!.id, true));
      await fixture.runtime.resume(session.id);
      const result = await fixture.runtime.sendUserMessage('/compress', noAbort());
      expect(result.outcome).toBe('completed');
      const [end] = fixture.eventsOf('compaction-end');

      computeApi.openDocument(`equivalence-pins-${name}`, conversation, name, {
        tools: BROWSER_TOOL_SCHEMAS,
        compactionPoints: [],
      });
      const lab = expectOk(
        await computeApi.compress(
          `equivalence-pins-${name}`,
          {
            strategy: name,
            config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: WINDOW_TOKENS },
            systemPrompt: SYSTEM_PROMPT,
            today: TODAY,
            mainModel: null,
            reason: 'manual',
            pinned: PINNED,
          },
          null,
        ),
      );
      if (lab.skipped !== null) {
        expect(end?.outcome).toBe('skipped');
        return;
      }
      expect(lab.assessment!.missingPins).toEqual([]);
      const stored = await fixture.repository.loadMessageEntries(end!.sessionId);
      expect(stored.map((entry) => entry.message)).toEqual(lab.messages);
      // The pins follow their messages into the compacted history, where the lab says they stand.
      expect(stored.flatMap((entry, index) => (entry.pinned ? [index] : []))).toEqual(lab.pinned);
      expect(lab.pinned.map((index) => lab.messages[index])).toEqual(
        PINNED.map((index) => conversation[index]),
      );
      expect(end!.assessment!.fidelity).toEqual(lab.assessment!.fidelity);
    },
  );
});
