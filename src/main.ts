import { mount } from 'svelte';
import { ComputeClient } from './io/compute/compute-client.ts';
import { AppDb } from './io/db/app-db.ts';
import { SettingsRepository } from './io/db/settings-repository.ts';
import { AppState } from './state/app-state.svelte.ts';
import App from './ui/App.svelte';
import './ui/app.css';

// The composition root: the only place that creates the database, the worker and the state.
const db = new AppDb();
const compute = new ComputeClient(
  () =>
    new Worker(new URL('./worker/compute.worker.ts', import.meta.url), { type: 'module', name: 'compute' }),
);
const app = new AppState({
  compute,
  settingsRepository: new SettingsRepository(db),
  loadDemoTranscript: async () => (await import('./core/demo/demo-transcript.ts')).buildDemoTranscript(),
});

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');
mount(App, { target, props: { app } });
void app.start();
