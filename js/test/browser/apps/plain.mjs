// The app as Vite, webpack, an import map and a CDN layout load it: txfx finds its module and its
// worker by itself (new URL(..., import.meta.url)).
import * as txfx from 'txfx';
import * as worker from 'txfx/worker';

import { check } from './checks.mjs';

check(txfx, worker);
