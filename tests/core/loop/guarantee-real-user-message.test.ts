import { describe, expect, it } from 'vitest';
import { NO_USER_CONTINUATION, SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { guaranteeRealUserMessage } from '#core/loop/guarantee-real-user-message.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const summary: Message = { role: 'user', content: `${SUMMARY_PREFIX_2026_07}\nthe summary` };
const ask: Message = { role: 'user', content: 'fix the login bug' };

describe('guaranteeRealUserMessage', () => {
  it('leaves a list that has a real user message alone', () => {
    const list: Message[] = [summary, ask, { role: 'assistant', content: 'ok' }];
    expect(guaranteeRealUserMessage(list, list, HERMES_2026_07)).toEqual(list);
  });

  it('puts the newest real user message before an assistant turn that has no user turn before it', () => {
    const compacted: Message[] = [{ role: 'assistant', content: 'working on it' }];
    expect(guaranteeRealUserMessage(compacted, [ask, ...compacted], HERMES_2026_07)).toEqual([
      ask,
      ...compacted,
    ]);
  });

  it('appends it after a trailing summary', () => {
    expect(guaranteeRealUserMessage([summary], [ask], HERMES_2026_07)).toEqual([summary, ask]);
  });

  it('adds the no-user continuation when nobody ever wrote anything', () => {
    expect(guaranteeRealUserMessage([summary], [summary], HERMES_2026_07)).toEqual([
      summary,
      { role: 'user', content: NO_USER_CONTINUATION },
    ]);
  });

  it('is not part of 2026-04', () => {
    const compacted: Message[] = [{ role: 'assistant', content: 'x' }];
    expect(guaranteeRealUserMessage(compacted, [ask], HERMES_2026_04)).toEqual(compacted);
  });
});
