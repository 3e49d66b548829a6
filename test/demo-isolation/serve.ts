// Starts `dealsignal serve` (the environment configures it) and the MCP server's module, from the
// sources, under watch-faker.ts: prints "faker loaded: URL" and exits as soon as faker is loaded,
// or "faker not loaded" once the server is serving.
import { fakerModules } from './watch-faker.js';

fakerModules.on('message', (url: string) => {
  console.log(`faker loaded: ${url}`);
  process.exit(0);
});
fakerModules.unref();

const { main } = await import('../../src/cli/main.js');
await import('../../src/cli/mcp.js');
const code = await main(['serve']);
// The hooks' last messages are posted before the import they resolve finishes; let them arrive.
await new Promise((resolve) => setTimeout(resolve, 200));
console.log(code === 0 ? 'faker not loaded' : `serve exited ${code}`);
process.exit(0);
