// Loaded with --import before the code under test: registers a resolve hook that reports every
// module of @faker-js/faker the process loads, on `fakerModules` (a MessagePort: 'message' events
// carry the module's URL).
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
export const fakerModules = port1;
register('./faker-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
