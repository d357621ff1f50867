import { describe, expect, it } from 'vitest';
import { exportMarkdown } from '#core/export/export-markdown.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

const longOutput = Array.from({ length: 40 }, (_, index) => `line ${index} of the build log`).join('\n');

const transcript: Transcript = {
  messages: [
    { role: 'system', content: 'You are Claude Code.' },
    { role: 'user', content: 'Build it and show me `npm run build`.' },
    {
      role: 'assistant',
      content: 'Building.',
      reasoning: 'Run the build.',
      tool_calls: [
        {
          id: 'toolu_1',
          type: 'function',
          function: { name: 'Bash', arguments: '{"command":"npm run build"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'toolu_1', content: longOutput, is_error: true },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Summary: build fixed.' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    },
    { role: 'assistant', content: 'Here is a fence: ```js\nx\n```' },
  ],
  metadata: {
    format: 'claude-code',
    title: 'Build fix',
    model: 'claude-sonnet-4-5',
    compactionPoints: [
      {
        messageIndex: 4,
        kind: 'claude-compact-boundary',
        trigger: 'auto',
        preTokens: 155116,
        postTokens: 12062,
      },
    ],
  },
};

describe('exportMarkdown', () => {
  const markdown = exportMarkdown(transcript);

  it('heads every message with its index and role', () => {
    expect(
      markdown.startsWith('# Build fix\n\nSource: claude-code · Model: claude-sonnet-4-5 · 6 messages\n'),
    ).toBe(true);
    expect(markdown).toContain('## 0 · System\n\nYou are Claude Code.');
    expect(markdown).toContain(
      '## 2 · Assistant\n\n> Run the build.\n\nBuilding.\n\n**Tool call** `Bash` (toolu_1)\n\n```json\n{\n  "command": "npm run build"\n}\n```',
    );
  });

  it('folds long tool results and names the call they answer', () => {
    expect(markdown).toContain('## 3 · Tool result · `Bash` (toolu_1) · error\n\n<details><summary>');
    expect(markdown).toContain('```text\nline 0 of the build log');
  });

  it('marks compaction points and describes inline images', () => {
    expect(markdown).toContain(
      '> **Compaction** (claude-compact-boundary: auto, 155,116 tokens before, 12,062 after)\n\n## 4 · User',
    );
    expect(markdown).toContain('[image: image/png, 26 characters]');
  });

  it('never lets message text close a fence early', () => {
    const withFenceInResult = exportMarkdown({
      messages: [{ role: 'tool', tool_call_id: 'x', content: 'a ```` b' }],
      metadata: { format: 'internal', compactionPoints: [] },
    });
    expect(withFenceInResult).toContain('`````text\na ```` b\n`````');
  });

  it('writes no HTML or Markdown that a file put in its metadata, ids or tool names', () => {
    const hostile: Transcript = {
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: '"><svg onload=alert(1)>',
              type: 'function',
              function: { name: 'x`<b>bold</b>', arguments: '{}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: '"><svg onload=alert(1)>', content: 'ok' },
        { role: '<iframe src=javascript:alert(1)>', content: 'odd role' },
      ],
      metadata: {
        format: 'openai-chat',
        title: '<img src=x onerror=alert(1)>',
        model: '<script>alert(1)</script>',
        sourceSessionId: '[click](javascript:alert(1))',
        startedAt: '2026-01-01T00:00:00Z\n\n<details open>',
        compactionPoints: [{ messageIndex: 1, kind: 'claude-compact-boundary', trigger: '<b>auto</b>' }],
        segments: [{ messageIndex: 0, label: '</em><script>x</script>' }],
      },
    };
    const markdown = exportMarkdown(hostile);
    // No tag outside a code span (inside one, `<b>` is literal text).
    const outsideCode = markdown.replace(/(`+)[^`][\s\S]*?\1/g, '');
    expect(outsideCode.match(/<\/?[a-z][^>]*>/gi) ?? []).toEqual([]);
    expect(markdown).toContain('# &lt;img src=x onerror=alert(1)&gt;\n');
    expect(markdown).toContain('Model: &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markdown).toContain('Session: \\[click\\](javascript:alert(1))');
    expect(markdown).toContain('**Tool call** ``x`<b>bold</b>`` ("&gt;&lt;svg onload=alert(1)&gt;)');
  });
});
