import { mount } from 'svelte';
import { ComputeClient } from './io/compute/compute-client.ts';
import { workerCompactor } from './io/compute/worker-compactor.ts';
import { workerStoredSessions } from './io/compute/worker-stored-sessions.ts';
import { AppDb } from './io/db/app-db.ts';
import { createBrowserStorage } from './io/db/browser-storage.ts';
import { SessionRepository } from './io/db/session-repository.ts';
import { StoredSessionsMarkerStore } from './io/db/stored-sessions-marker-store.ts';
import { SettingsRepository } from './io/db/settings-repository.ts';
import { AppState } from './state/app-state.svelte.ts';
import { sessionStoreFromRepository } from './state/repository-session-store.ts';
import { sessionsPanelContext } from './state/sessions-context.ts';
import { SessionsState } from './state/sessions-state.svelte.ts';
import { StorageState } from './state/storage-state.svelte.ts';
import { storageContext } from './state/storage-context.ts';
import { UsageState } from './state/usage-state.svelte.ts';
import { chatPanelContext } from './state/chat-context.ts';
import { ChatState } from './state/chat-state.svelte.ts';
import { appShellContext } from './state/app-shell-context.ts';
import { AppUpdateState } from './state/app-update-state.svelte.ts';
import { NetworkStatus } from './state/network-status.svelte.ts';
import { connectPolicyFor } from './core/security/content-security-policy.ts';
import { DEFAULT_BASE_URLS } from './io/llm/provider-settings.ts';
import type { Preset } from './core/presets/preset.ts';
import type { TokenEncoding } from './core/tokens/estimator.ts';

/** OpenRouter is the OpenAI-compatible route Hermes caches Claude on (§8); allowed without a reload. */
const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';
import { watchConnectViolations } from './io/security/connect-policy-guard.ts';
import { installContentSecurityPolicy } from './io/security/install-content-security-policy.ts';
import App from './ui/App.svelte';
import './ui/app.css';

/** Hex digits from the browser's cryptographic random source (session ids). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

// The composition root: the only place that creates the database, the worker and the state.
const db = new AppDb();
const browserStorage = createBrowserStorage();
// The repository follows the preset the user chose (read when needed, after the app exists).
const sessions = new SessionRepository(db, {
  now: Date.now,
  randomHex,
  preset: (): Preset => app.settings.preset,
  storageEstimate: () => browserStorage.estimate(),
});
// Before anything can write: compares the store with what the last run left.
const storage = new StorageState({
  storage: browserStorage,
  sessions,
  marker: new StoredSessionsMarkerStore(),
});
void storage.start();
const compute = new ComputeClient(
  () =>
    new Worker(new URL('./worker/compute.worker.ts', import.meta.url), { type: 'module', name: 'compute' }),
);
const app = new AppState({
  compute,
  settingsRepository: new SettingsRepository(db),
  sessions: sessionStoreFromRepository(sessions, compute, () => browserStorage.estimate()),
});

/** The encoding exact counts use: the estimator's, or o200k when the map counts roughly. */
const exactEncoding = (): TokenEncoding =>
  app.settings.estimator === 'rough' ? 'o200k_base' : app.settings.estimator;

const sessionsPanel = new SessionsState({
  repository: sessions,
  preset: () => app.settings.preset,
  stored: workerStoredSessions(compute),
  openInWorkspace: ({ sessionId, messageId, source }) => app.openSession(sessionId, messageId, source),
  openReadOnly: (transcript) => app.openReadOnly(transcript),
  // `chat` is created below; the callbacks run only on a click, long after.
  // The chat and the lab each follow the live session when they show the conversation changed.
  onHistoryChanged: (change) => {
    void chat.reloadIfShowing(change);
    const live = sessionsPanel.sessions.find((session) => session.id === change.liveSessionId);
    void app.reloadIfShowing(change, live?.source ?? null);
  },
  resumeInChat: async (sessionId) => {
    await chat.resume(sessionId);
    app.workspace.selectTab('chat');
  },
});
const usagePanel = new UsageState({
  repository: sessions,
  sessions: sessionsPanel,
  preset: () => app.settings.preset,
});

const chat = new ChatState({
  settingsRepository: new SettingsRepository(db),
  // Provider, strategy, thresholds and the model's window: the lab's own settings, one window per model.
  baseSettings: () => ({
    strategy: app.settings.strategy,
    provider: app.provider.providerSettings(),
    compression: app.settings.compressionConfig(app.provider.compressionRoute()),
    // In place or by rotation (the preset's mode unless overridden), and whether automatic
    // compactions wait for review.
    compactionMode: app.settings.compactionMode,
    reviewCompactions: app.settings.compactionBehaviour.review,
  }),
  // The workspace follows the conversation: the map, list and plan show its request context.
  onConversation: (conversation, claim) => app.showConversation(conversation, claim),
  countTokens: (text) => compute.run<number>((api) => api.countText(text, exactEncoding())),
  encoding: () => exactEncoding(),
  // The loop loads with the chat; the SDK-backed clients on the first message.
  createRuntime: async (settings, reviewer) => {
    const [{ ConversationRuntime }, store, { abortableSleep }] = await Promise.all([
      import('./io/runtime/conversation-runtime.ts'),
      import('./io/runtime/session-repository-store.ts'),
      import('./io/llm/retry-with-backoff.ts'),
    ]);
    return new ConversationRuntime({
      store: store.conversationStoreFromRepository(sessions),
      toolResults: store.toolResultStoreFromRepository(sessions),
      settings,
      createClient: async (provider, preset) =>
        (await import('./io/llm/create-chat-client.ts')).createChatClient(provider, { preset }),
      compact: workerCompactor(compute),
      now: Date.now,
      random: Math.random,
      sleep: abortableSleep,
      today: () => new Date().toISOString().slice(0, 10),
      reviewer,
    });
  },
});

// Installable and offline: the service worker exists in production builds only, so the dev server
// always serves fresh modules. Its registration code (and workbox-window) loads after the first screen.
const update = new AppUpdateState(
  import.meta.env.PROD && 'serviceWorker' in navigator
    ? async (events) =>
        (await import('./io/offline/register-app-service-worker.ts')).registerAppServiceWorker(events)
    : null,
);
const network = new NetworkStatus({ isOnline: () => navigator.onLine, events: window });
network.start();

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
// The first screen is mounted in a task of its own. Evaluating the modules and creating the state
// above, then mounting the app, made one task of 57–77 ms at startup (SPEC §7: no main-thread
// task over 50 ms); split, each is well under it, and nothing can be clicked before either ends.
setTimeout(() => {
  mount(App, {
    target,
    props: { app },
    context: new Map([
      ...sessionsPanelContext(sessionsPanel, usagePanel),
      ...chatPanelContext(chat),
      ...appShellContext(update, network),
      ...storageContext(storage),
    ]),
  });
  void app.start();
}, 0);

// SPEC §8: the page may connect only to itself, the configured provider, the built-in providers'
// endpoints (Anthropic, OpenAI, OpenRouter) and local servers on loopback. A meta policy cannot be
// loosened once installed, so it is installed once the provider settings are read, before any
// provider request; a base URL on another host takes effect at the next page load. Production
// builds only: the dev server's hot-reload socket is not a provider.
if (import.meta.env.PROD) {
  // A request the policy blocks is then explained as "reload to allow HOST".
  watchConnectViolations(document);
  void app.provider.load().then(() => {
    const configured = app.provider.config.baseUrl || DEFAULT_BASE_URLS[app.provider.provider];
    installContentSecurityPolicy(
      document,
      connectPolicyFor([configured, ...Object.values(DEFAULT_BASE_URLS), OPENROUTER_BASE_URL]),
    );
  });
}
// Independent of the lab's start, which waits for the worker's exact counts.
void chat.start();
// After the page's own load, so precaching the assets never competes with the first screen.
if (document.readyState === 'complete') void update.start();
else window.addEventListener('load', () => void update.start(), { once: true });
