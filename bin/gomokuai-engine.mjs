#!/usr/bin/env node
// A Gomocup (Piskvork) brain playing the npm package gomokuai, for `gomoku match` and any
// Gomocup manager: the same as `gomoku brain --player gomokuai`. Extra arguments are
// passed on to it.
import { register } from 'tsx/esm/api';

register();
const { brainCommand } = await import('../src/cli/brain.ts');
const { processIO } = await import('../src/bot/io.ts');
process.exitCode = await brainCommand.run(['--player', 'gomokuai', ...process.argv.slice(2)], processIO);
