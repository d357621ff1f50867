import { createCompressorState } from '#core/compression/compressor-state.ts';
import { SUMMARY_PREFIX_2026_04 } from '#core/compression/markers.ts';
import type { SessionRepository } from '#io/db/session-repository.ts';
import { assistant, expectOk, system, user } from '#tests/helpers/session-repository-fixture.ts';

export interface StoredChain {
  rootId: string;
  middleId: string;
  tipId: string;
  loneId: string;
}

/**
 * A three-segment continuation chain (root → middle → tip, each rotation opening with a summary)
 * and one unrelated imported session. Only the root holds the word "zanzibar".
 */
export async function storeChain(repository: SessionRepository): Promise<StoredChain> {
  const root = expectOk(
    await repository.createSession(
      {
        title: 'Fix the login bug',
        source: 'chat',
        model: 'claude-sonnet-4-20250514',
        systemPrompt: 'Be brief.',
        provider: 'anthropic',
      },
      [system('Be brief.'), user('The login fails on zanzibar accounts'), assistant('Looking at auth.py')],
    ),
  );
  const middle = expectOk(
    await repository.rotateForCompression(
      root.id,
      [
        system('Be brief.'),
        user(`${SUMMARY_PREFIX_2026_04}\n## Active Task\nFix login for special accounts`),
        user('go on'),
      ],
      { compressorState: { ...createCompressorState(), compressionCount: 1 }, systemPrompt: 'Be brief.' },
    ),
  );
  await repository.appendMessages(middle.id, [assistant('Patched the session check')]);
  const tip = expectOk(
    await repository.rotateForCompression(
      middle.id,
      [
        system('Be brief.'),
        user(`${SUMMARY_PREFIX_2026_04}\n## Active Task\nVerify the patch`),
        user('run the tests'),
      ],
      { compressorState: { ...createCompressorState(), compressionCount: 2 }, systemPrompt: 'Be brief.' },
    ),
  );
  const lone = expectOk(
    await repository.createSession(
      {
        title: 'Imported notes',
        source: 'import',
        model: null,
        systemPrompt: null,
        metadata: { format: 'openai-chat' },
      },
      [user('hello there'), assistant('hi')],
    ),
  );
  return { rootId: root.id, middleId: middle.id, tipId: tip.id, loneId: lone.id };
}
