import { describe, expect, it } from 'vitest';
import { findLayerViolations } from './find-layer-violations.ts';

describe('findLayerViolations', () => {
  it('flags core importing dexie, svelte or comlink', () => {
    const source = `import Dexie from 'dexie';\nimport { mount } from 'svelte';\nimport * as Comlink from 'comlink';`;
    expect(findLayerViolations('core', 'core/x.ts', source).map((v) => v.problem)).toEqual([
      "core imports package 'dexie'",
      "core imports package 'svelte'",
      "core imports package 'comlink'",
    ]);
  });

  it('flags core using ambient time, randomness and IO globals', () => {
    const source =
      'const t = Date.now(); const r = Math.random(); fetch("/x"); window.alert(1); indexedDB.open("x");';
    const problems = findLayerViolations('core', 'core/x.ts', source).map((v) => v.problem);
    expect(problems).toEqual(
      expect.arrayContaining([
        'core uses Date.now',
        'core uses Math.random',
        'core uses fetch',
        'core uses window',
        'core uses indexedDB',
      ]),
    );
  });

  it('flags an upward import from core into io through a relative path', () => {
    const source = "import { AppDb } from '../../io/db/app-db.ts';";
    expect(findLayerViolations('core', 'core/compression/x.ts', source)).toHaveLength(1);
  });

  it('flags ui importing io or dexie directly', () => {
    const source = "import { AppDb } from '../io/db/app-db.ts';\nimport { liveQuery } from 'dexie';";
    expect(findLayerViolations('ui', 'ui/App.svelte', source).map((v) => v.problem)).toEqual([
      "ui imports io ('../io/db/app-db.ts')",
      "ui imports package 'dexie'",
    ]);
  });

  it('keeps the provider SDKs and the service worker registration in io', () => {
    const source =
      "import OpenAI from 'openai';\nimport type { Stream } from 'openai/streaming';\nimport { registerSW } from 'virtual:pwa-register';\nimport { Workbox } from 'workbox-window';";
    for (const layer of ['core', 'ui', 'state'] as const) {
      expect(findLayerViolations(layer, `${layer}/x.ts`, source).map((v) => v.problem)).toEqual([
        `${layer} imports package 'openai'`,
        `${layer} imports package 'openai/streaming'`,
        `${layer} imports package 'virtual:pwa-register'`,
        `${layer} imports package 'workbox-window'`,
      ]);
    }
    expect(findLayerViolations('io', 'io/llm/x.ts', source)).toEqual([]);
    // A package whose name merely starts with "openai" is not the SDK.
    expect(findLayerViolations('ui', 'ui/x.ts', "import x from 'openai-tokens';")).toEqual([]);
  });

  it('allows io to import worker types only', () => {
    expect(
      findLayerViolations(
        'io',
        'io/compute/client.ts',
        "import type { ComputeApi } from '../../worker/compute-api.ts';",
      ),
    ).toEqual([]);
    expect(
      findLayerViolations(
        'io',
        'io/compute/client.ts',
        "import { computeApi } from '../../worker/compute-api.ts';",
      ),
    ).toHaveLength(1);
  });

  it('allows the worker the session store (io/db) and Dexie, and no other io', () => {
    expect(
      findLayerViolations(
        'worker',
        'worker/x.ts',
        "import { SessionRepository } from '../io/db/session-repository.ts';\nimport Dexie from 'dexie';",
      ),
    ).toEqual([]);
    expect(findLayerViolations('worker', 'worker/x.ts', "import { x } from '#io/db/app-db.ts';")).toEqual([]);
    expect(
      findLayerViolations(
        'worker',
        'worker/x.ts',
        "import { createChatClient } from '../io/llm/create-chat-client.ts';",
      ),
    ).toEqual([{ file: 'worker/x.ts', problem: "worker imports io ('../io/llm/create-chat-client.ts')" }]);
    expect(findLayerViolations('worker', 'worker/x.ts', "import { x } from '../state/x.ts';")).toHaveLength(
      1,
    );
  });

  it('ignores words in comments and property names', () => {
    const source =
      '// Date.now() is banned here\nconst options = { fetch: 1 }; options.fetch;\n/* window.x */';
    expect(findLayerViolations('core', 'core/x.ts', source)).toEqual([]);
  });

  it('allows core to import core through a relative path', () => {
    expect(findLayerViolations('core', 'core/a/b.ts', "import { x } from '../shared/result.ts';")).toEqual(
      [],
    );
  });
});

describe('findLayerViolations with local bindings', () => {
  it('accepts a local variable named like a DOM global', () => {
    const source = 'function read(document: { messages: unknown[] }) { return document.messages; }';
    expect(findLayerViolations('core', 'core/import/x.ts', source)).toEqual([]);
    expect(
      findLayerViolations('core', 'core/import/y.ts', 'const document = parse(text); document.messages;'),
    ).toEqual([]);
  });

  it('still flags the DOM global when nothing declares it', () => {
    expect(findLayerViolations('core', 'core/x.ts', 'document.title = "x";')).toHaveLength(1);
  });
});
