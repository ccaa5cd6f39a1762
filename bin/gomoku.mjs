#!/usr/bin/env node
// The `gomoku` command. It runs the TypeScript sources directly through tsx, so
// `npx gomoku ...` works straight after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`gomoku show … | head`) closes the pipe: stop quietly, as other
// command-line tools do, rather than with a stack trace.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
