#!/usr/bin/env node
// `npm start`: the Discord bot, or — without DISCORD_TOKEN — a local game in this terminal.
// `npm run deploy` runs this with `deploy`: it registers the slash commands. Settings come
// from the environment, filled from ./.env by dotenv (variables already set win). Runs the
// TypeScript sources through tsx; there is no build step.
import { config } from 'dotenv';
import { register } from 'tsx/esm/api';

config({ quiet: true });
register();
const { main } = await import('../src/discord/main.ts');
process.exitCode = await main(process.argv.slice(2), process.env);
// main has finished: the bot stopped (or its stop ran past SHUTDOWN_GRACE_MS), or the terminal
// game ended. Whatever still holds the event loop — a socket to a server that never answers,
// a timer of a library — must not keep the process alive; the exit code is already decided.
globalThis.setTimeout(() => process.exit(), 250).unref();
