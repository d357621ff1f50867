import type { FormatEvidence, TextFormatSpec } from '../transcript-format-spec.ts';
import { AIDER_SESSION_HEADER, parseAiderChatHistory } from './parse-aider-chat-history.ts';

export const aiderFormat: TextFormatSpec<'aider'> = {
  id: 'aider',
  label: 'Aider chat history (Markdown)',
  expectation:
    'an Aider .aider.chat.history.md: "# aider chat started at …" sessions with "#### " user lines, reply text and "> " tool output',
  fileExtensions: ['.md'],
  layout: 'text',
  detect: { text: detectAider },
  parse: parseAiderChatHistory,
};

function detectAider(head: string): FormatEvidence | null {
  if (AIDER_SESSION_HEADER.test(head)) {
    return { confidence: 0.95, reason: 'the text opens an Aider session ("# aider chat started at …")' };
  }
  const firstLine = head.trimStart().split('\n', 1)[0] ?? '';
  return firstLine.startsWith('#### ')
    ? { confidence: 0.6, reason: 'the text starts with an Aider "#### " user line' }
    : null;
}
