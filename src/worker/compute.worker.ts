import { expose } from 'comlink';
import { computeApi } from './compute-api.ts';

expose(computeApi);
