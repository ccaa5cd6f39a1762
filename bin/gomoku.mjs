#!/usr/bin/env node
// The `gomoku` command. It runs the TypeScript sources directly through tsx, so
// `npx gomoku ...` works straight after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
